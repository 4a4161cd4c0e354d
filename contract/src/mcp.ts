import { Type, type TObject } from '@sinclair/typebox';
import { GroupListSchema } from './groups.js';
import { LIMITS, TODO_PAGE_MAX } from './constants.js';
import { InsightsQuerySchema, InsightsSchema } from './statistics.js';
import { TagListSchema } from './tags.js';
import {
  CreateTodoBodySchema,
  PatchTodoBodySchema,
  TodoListQuerySchema,
  TodoListSchema,
  TodoSchema,
} from './todos.js';

/**
 * The tools of the MCP endpoint (docs/decisions/134-mcp-through-the-api.md): each one's input
 * and output are JSON Schema built from the /api schemas, so an assistant is told exactly what
 * the API takes and answers. The server runs each tool as one or two /api calls made with the
 * assistant's token. MCP wants objects at the top of both schemas: a list answers inside one.
 */

export interface McpTool {
  description: string;
  input: TObject;
  output: TObject;
  /** Changes something: absent from a read-only token's tools. */
  write: boolean;
  /** Moves a todo to the trash (MCP's destructiveHint). */
  destructive?: boolean;
}

const id = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "The todo's id" });
const version = Type.Optional(
  Type.Integer({
    minimum: 1,
    description:
      "The todo's `version` as you read it: when it changed since, nothing changes and the " +
      'tool says so with the todo as it is now. Leave it out to change it whatever its version.',
  }),
);
const noInput = Type.Object({}, { additionalProperties: false });
const one = (properties: Parameters<typeof Type.Object>[0]) =>
  Type.Object(properties, { additionalProperties: false });

const query = TodoListQuerySchema.properties;
const planning = CreateTodoBodySchema.properties;

export const MCP_TOOLS = {
  find_todos: {
    description:
      'Find todos: by words (q), by view (today, upcoming, overdue; not with q), by group, tag, ' +
      'priority or completion. Newest first unless q ranks them or sort says otherwise.',
    input: one({
      q: query.q,
      view: query.view,
      groupId: Type.Optional(
        Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
          description: 'Only this group (list_groups); null: only todos without a group',
        }),
      ),
      tag: query.tag,
      priority: query.priority,
      completed: Type.Optional(
        Type.Boolean({ description: 'true: only completed todos; false: only open ones' }),
      ),
      sort: query.sort,
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: TODO_PAGE_MAX,
          description: `At most this many (50 when left out, at most ${TODO_PAGE_MAX})`,
        }),
      ),
    }),
    output: one({
      todos: TodoListSchema,
      total: Type.Integer({ minimum: 0, description: 'How many matched, before limit' }),
    }),
    write: false,
  },
  get_todo: {
    description: 'One todo with every field, by id.',
    input: one({ id }),
    output: TodoSchema,
    write: false,
  },
  add_todo: {
    description:
      'Add a todo. Either `text`, read as the quick add reads it (a date or time such as ' +
      '"tomorrow 9:00" or "by Dec 12", a repeat such as "every month", @tag, p1-p3 or !-!!! for ' +
      'the priority, #Group naming one of list_groups), or `title` with the other fields; fields ' +
      'given beside `text` win over what it says. With `title`, dates go in dueDate (YYYY-MM-DD).',
    input: one({
      text: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: LIMITS.todoTitleMax,
          description: 'Quick-add text, e.g. "Buy oat milk @shop p1 #Errands"',
        }),
      ),
      ...planning,
      title: Type.Optional(planning.title),
    }),
    output: TodoSchema,
    write: true,
  },
  update_todo: {
    description: 'Change some fields of a todo; the fields left out stay as they are.',
    input: one({ id, version, ...PatchTodoBodySchema.properties }),
    output: TodoSchema,
    write: true,
  },
  complete_todo: {
    description:
      'Mark a todo done. A repeating todo counts the completion and moves on to its next date.',
    input: one({ id, version }),
    output: TodoSchema,
    write: true,
  },
  reopen_todo: {
    description: 'Mark a completed todo as not done.',
    input: one({ id, version }),
    output: TodoSchema,
    write: true,
  },
  reschedule_todo: {
    description: 'Give a todo another due date (and time), or none (dueDate null).',
    input: one({
      id,
      version,
      dueDate: Type.Required(Type.Pick(CreateTodoBodySchema, ['dueDate'])).properties.dueDate,
      dueTime: planning.dueTime,
    }),
    output: TodoSchema,
    write: true,
  },
  delete_todo: {
    description:
      'Move a todo (and its subtasks) to the trash, where it can be restored for 30 days.',
    input: one({ id, version }),
    output: one({ trashed: TodoSchema }),
    write: true,
    destructive: true,
  },
  list_groups: {
    description: 'The groups (lists) todos can be in, with their ids.',
    input: noInput,
    output: one({ groups: GroupListSchema }),
    write: false,
  },
  list_tags: {
    description: 'The tags, with how many open todos carry each.',
    input: noInput,
    output: one({ tags: TagListSchema }),
    write: false,
  },
  insights_summary: {
    description:
      'Insights: streaks, completions by weekday and hour, lead time, on-time rate, the busiest ' +
      'groups and tags, and this week against last week.',
    input: one({ weeks: Type.Optional(InsightsQuerySchema.properties.weeks) }),
    output: InsightsSchema,
    write: false,
  },
} as const satisfies Record<string, McpTool>;

export type McpToolName = keyof typeof MCP_TOOLS;
