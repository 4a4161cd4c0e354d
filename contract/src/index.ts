export * from './constants.js';
export * from './common.js';
// Named by the types of the schemas that use it (a nullable answer field).
export type { TNullable } from './nullable.js';
export * from './routes.js';
export * from './endpoint.js';
export * from './auth.js';
export * from './account.js';
export * from './two-factor.js';
export * from './passkeys.js';
export * from './oidc.js';
export * from './tokens.js';
export * from './calendar.js';
export * from './inbox.js';
export * from './todos.js';
export * from './reminders.js';
export * from './notifications.js';
export * from './tags.js';
export * from './trash.js';
export * from './groups.js';
export * from './filters/saved-filters.js';
export {
  FILTER_QUERY_MAX,
  FilterError,
  filterTodos,
  parseFilter,
  type Filter,
  type FilterContext,
} from './filters/filter-query.js';
export * from './statistics.js';
export * from './transfer.js';
export * from './live.js';
export * from './admin.js';
export * from './system.js';
export * from './api.js';
export * from './mcp.js';
