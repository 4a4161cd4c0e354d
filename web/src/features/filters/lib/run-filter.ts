import type { Group, Todo } from '@tally/contract';
import {
  FilterError,
  filterTodos,
  parseFilter,
  wallClockIn,
  type Filter,
} from '@tally/contract/filter-query';

/** The browser's zone: the one the web app sets on the account, and the server reads in. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A saved filter's query read as the server reads it, here against the cached todos, so a filter
 * shows the same todos offline (docs/decisions/162-filters.md). A query it cannot read gives the
 * reader's sentence instead.
 */
export function readQuery(
  query: string,
  groups: readonly Pick<Group, 'id' | 'name'>[],
  now = Date.now(),
  timeZone: string = browserZone(),
): { filter: Filter; error: null } | { filter: null; error: string } {
  try {
    const { today, time } = wallClockIn(now, timeZone);
    return { filter: parseFilter(query, { today, time, timeZone, groups }), error: null };
  } catch (error) {
    if (error instanceof FilterError) return { filter: null, error: error.message };
    throw error;
  }
}

/** The todos the query shows, in the list's order; none when it cannot be read. */
export function todosOfQuery(
  query: string,
  groups: readonly Pick<Group, 'id' | 'name'>[],
  todos: readonly Todo[],
  now?: number,
  timeZone?: string,
): Todo[] {
  const { filter } = readQuery(query, groups, now, timeZone);
  return filter ? filterTodos(filter, todos) : [];
}

/** What the builder's chips stand for. */
export interface FilterChips {
  groupName: string;
  tag: string;
  /** Todoist's p1-p4, or '' for any. */
  priority: string;
  /** A date word of DATE_RANGES, or '' for any. */
  dates: string;
  text: string;
}

export const DATE_RANGES = ['today', 'overdue', 'next 7 days', 'no date', 'recurring'] as const;

/** Quotes the characters the reader takes for operators, so a name or word stays plain text. */
const plain = (text: string) => text.trim().replace(/[&|!(),\\]/g, (char) => `\\${char}`);

/** The query the chips write: each chosen chip, joined with &. */
export function queryOfChips(chips: FilterChips): string {
  const parts: string[] = [];
  if (chips.groupName) parts.push(`#${plain(chips.groupName)}`);
  if (chips.tag.trim()) parts.push(`@${plain(chips.tag).replace(/\s+/g, '')}`);
  if (chips.priority) parts.push(chips.priority);
  if (chips.dates) parts.push(chips.dates);
  if (chips.text.trim()) parts.push(`search: ${plain(chips.text)}`);
  return parts.join(' & ');
}
