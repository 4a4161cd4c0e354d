import { FILTER_QUERY_MAX } from '../constants.js';
import { addDays } from '../dates.js';
import { searchWords } from '../search-words.js';
import { readFilterDate, startOfDayIn } from './filter-dates.js';

export { wallClockIn } from './filter-dates.js';
import type { Todo } from '../todos.js';

/**
 * Filters (docs/product.md, Filters): Todoist's filter syntax for what Tally models, read into a
 * tree whose every date is already resolved against the user's day, so the same tree gives the
 * same todos wherever it is evaluated: here over the web app's cached todos (evaluateFilter), and
 * on the server as SQL (server/src/shared/filter-sql.ts). Imports nothing heavy (the light entry
 * `@tally/contract/filter-query`).
 *
 *   query  := list (',' list)*          several lists, shown one after another
 *   list   := or
 *   or     := and ('|' and)*
 *   and    := unary ('&' unary)*
 *   unary  := '!' unary | '(' or ')' | term
 *
 * A term is the text up to the next operator (a backslash makes the next character plain text).
 */

/** Tally's priorities by Todoist's names: p1 is the highest, p4 is none. */
const FILTER_PRIORITIES: Readonly<Record<string, 0 | 1 | 2 | 3>> = {
  p1: 3,
  p2: 2,
  p3: 1,
  p4: 0,
};

/** How many days `next N days` may span. */
const FILTER_NEXT_DAYS_MAX = 3650;
export { FILTER_QUERY_MAX };

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; node: FilterNode }
  /** due_date within [from, to], both inclusive; either may be open. */
  | { kind: 'due'; from: string | null; to: string | null }
  | { kind: 'noDate' }
  /** Due before today, or today at a time already past. */
  | { kind: 'overdue'; today: string; time: string }
  | { kind: 'group'; ids: number[] }
  /** A tag's name in lower case. */
  | { kind: 'tag'; name: string }
  | { kind: 'noTags' }
  | { kind: 'priority'; value: number }
  /** Words the todo's title, description and tags all hold (as search compares them). */
  | { kind: 'search'; words: string[] }
  | { kind: 'recurring' }
  | { kind: 'subtask' }
  | { kind: 'completed' }
  /** Created before (exclusive) or from `instant` on. */
  | { kind: 'created'; before: boolean; instant: number }
  /** start_date before `date` (exclusive) or after it (exclusive). */
  | { kind: 'start'; before: boolean; date: string };

export interface FilterList {
  node: FilterNode;
  /** Only open todos: true unless the list names `completed`. */
  openOnly: boolean;
}

export interface Filter {
  lists: FilterList[];
}

export interface FilterContext {
  /** The user's date (YYYY-MM-DD) and clock time (HH:mm) now, in their zone. */
  today: string;
  time: string;
  /** The user's IANA zone: the day a `created before:` date starts. */
  timeZone: string;
  /** The user's groups, which `#Name` names (any case). */
  groups: readonly { id: number; name: string }[];
}

/** A query that cannot be read: `index` is where (0-based), `message` a sentence to show. */
export class FilterError extends Error {
  constructor(
    message: string,
    readonly index: number,
    readonly length: number,
  ) {
    super(message);
    this.name = 'FilterError';
  }
}

const fail = (text: string, index: number, reason: string): never => {
  throw new FilterError(`\`${text}\` at ${index + 1}: ${reason}`, index, text.length);
};

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { type: '&' | '|' | '!' | '(' | ')' | ','; index: number }
  | { type: 'term'; text: string; index: number };

const OPERATORS = new Set(['&', '|', '!', '(', ')', ',']);

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const char = query[i] ?? '';
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    if (OPERATORS.has(char)) {
      tokens.push({ type: char as '&', index: i });
      i += 1;
      continue;
    }
    const start = i;
    let text = '';
    while (i < query.length && !OPERATORS.has(query[i] ?? '')) {
      if (query[i] === '\\' && i + 1 < query.length) i += 1;
      text += query[i];
      i += 1;
    }
    tokens.push({ type: 'term', text: text.trimEnd(), index: start });
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Terms

/** The words a term may start with, for "did you mean". */
const KEYWORDS = [
  'today',
  'tomorrow',
  'yesterday',
  'overdue',
  'no date',
  'no due date',
  'due:',
  'due before:',
  'due after:',
  'next 7 days',
  'no priority',
  'no tags',
  'no labels',
  'search:',
  'recurring',
  'subtask',
  'completed',
  'created before:',
  'created after:',
  'start before:',
  'start after:',
  'p1',
  'p2',
  'p3',
  'p4',
];

/** Levenshtein distance, for suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The closest of the candidates, when close enough to be a typo. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3))
    ? best
    : undefined;
}

const didYouMean = (suggestion: string | undefined) =>
  suggestion === undefined ? 'not a filter word' : `did you mean \`${suggestion}\`?`;

function readDate(text: string, index: number, phrase: string, context: FilterContext): string {
  const date = readFilterDate(phrase, context.today);
  if (date === null) {
    fail(text, index, `\`${phrase}\` is not a date (try 2026-12-12, Dec 12 or next monday)`);
  }
  return date as string;
}

/** A term's meaning; `text` is the term as typed, `index` where it starts. */
function readTerm(text: string, index: number, context: FilterContext): FilterNode {
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  const { today } = context;
  if (text.startsWith('#')) {
    const name = text.slice(1).trim().toLowerCase();
    if (name === '') fail(text, index, 'a group name follows #');
    const ids = context.groups.filter((group) => group.name.toLowerCase() === name);
    if (ids.length === 0) {
      const suggestion = closest(
        name,
        context.groups.map((group) => group.name),
      );
      fail(
        text,
        index,
        suggestion === undefined
          ? 'no such group'
          : `no such group; did you mean \`#${suggestion}\`?`,
      );
    }
    return { kind: 'group', ids: ids.map((group) => group.id) };
  }
  if (text.startsWith('@')) {
    const name = text.slice(1).trim().toLowerCase();
    if (name === '' || /[\s,]/.test(name)) fail(text, index, 'a tag name (no spaces) follows @');
    return { kind: 'tag', name };
  }
  const priority = FILTER_PRIORITIES[lower];
  if (priority !== undefined) return { kind: 'priority', value: priority };
  if (/^p\d+$/.test(lower)) fail(text, index, 'priorities are p1 (highest) to p4 (none)');
  switch (lower) {
    case 'today':
    case 'tomorrow':
    case 'yesterday': {
      const date = readDate(text, index, lower, context);
      return { kind: 'due', from: date, to: date };
    }
    case 'overdue':
      return { kind: 'overdue', today, time: context.time };
    case 'no date':
    case 'no due date':
      return { kind: 'noDate' };
    case 'no priority':
      return { kind: 'priority', value: 0 };
    case 'no tags':
    case 'no labels':
      return { kind: 'noTags' };
    case 'recurring':
      return { kind: 'recurring' };
    case 'subtask':
    case 'subtasks':
      return { kind: 'subtask' };
    case 'completed':
      return { kind: 'completed' };
  }
  const next = /^(?:next )?(\d+) days?$/.exec(lower);
  if (next) {
    const days = Number(next[1]);
    if (days < 1 || days > FILTER_NEXT_DAYS_MAX) {
      fail(text, index, `the days are 1 to ${FILTER_NEXT_DAYS_MAX}`);
    }
    return { kind: 'due', from: today, to: addDays(today, days - 1) };
  }
  const keyed = /^([a-z]+(?: [a-z]+)?) ?:\s*(.*)$/s.exec(lower);
  if (keyed) {
    const key = keyed[1] ?? '';
    const value = keyed[2] ?? '';
    const rest = text.slice(text.indexOf(':') + 1).trim();
    if (key === 'search') {
      const words = searchWords(rest);
      if (words.length === 0) fail(text, index, 'search: needs a word to look for');
      return { kind: 'search', words };
    }
    if (
      [
        'due',
        'due before',
        'due after',
        'created before',
        'created after',
        'start before',
        'start after',
      ].includes(key)
    ) {
      if (value.trim() === '') fail(text, index, `a date follows \`${key}:\``);
      const date = readDate(text, index, value, context);
      if (key === 'due') return { kind: 'due', from: date, to: date };
      if (key === 'due before') return { kind: 'due', from: null, to: addDays(date, -1) };
      if (key === 'due after') return { kind: 'due', from: addDays(date, 1), to: null };
      if (key === 'created before') {
        return { kind: 'created', before: true, instant: startOfDayIn(date, context.timeZone) };
      }
      if (key === 'created after') {
        const after = addDays(date, 1);
        return { kind: 'created', before: false, instant: startOfDayIn(after, context.timeZone) };
      }
      return { kind: 'start', before: key === 'start before', date };
    }
    fail(
      `${text.slice(0, text.indexOf(':') + 1)}`,
      index,
      didYouMean(closest(`${key}:`, KEYWORDS)),
    );
  }
  // A date alone is the todos due that day (Todoist's "Dec 12").
  const date = readFilterDate(lower, today);
  if (date !== null) return { kind: 'due', from: date, to: date };
  return fail(text, index, didYouMean(closest(lower, KEYWORDS)));
}

// ---------------------------------------------------------------------------------------------
// The grammar

/**
 * Reads a query. Throws a FilterError naming the place and, when the words look like a typo,
 * the word meant.
 */
export function parseFilter(query: string, context: FilterContext): Filter {
  if (query.length > FILTER_QUERY_MAX) {
    throw new FilterError(
      `a filter is at most ${FILTER_QUERY_MAX} characters`,
      FILTER_QUERY_MAX,
      0,
    );
  }
  const tokens = tokenize(query);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const end = query.length;
  const describe = (token: Token) => (token.type === 'term' ? token.text : token.type);

  function expectOperand(after: Token | undefined): never {
    const token = peek();
    if (token === undefined) {
      if (after === undefined) throw new FilterError('the filter is empty', 0, 0);
      return fail(
        after.type === 'term' ? after.text : after.type,
        after.index,
        'something to match follows it',
      );
    }
    return fail(describe(token), token.index, 'a filter word, #group, @tag, ! or ( goes here');
  }

  function unary(before: Token | undefined): FilterNode {
    const token = peek();
    if (token === undefined) return expectOperand(before);
    if (token.type === '!') {
      at += 1;
      return { kind: 'not', node: unary(token) };
    }
    if (token.type === '(') {
      at += 1;
      const node = or(token);
      const close = peek();
      if (close?.type !== ')') {
        fail('(', token.index, 'this ( is never closed');
      }
      at += 1;
      return node;
    }
    if (token.type === 'term') {
      at += 1;
      return readTerm(token.text, token.index, context);
    }
    return expectOperand(before);
  }

  function and(before: Token | undefined): FilterNode {
    let node = unary(before);
    for (let token = peek(); token?.type === '&'; token = peek()) {
      at += 1;
      node = { kind: 'and', left: node, right: unary(token) };
    }
    return node;
  }

  function or(before: Token | undefined): FilterNode {
    let node = and(before);
    for (let token = peek(); token?.type === '|'; token = peek()) {
      at += 1;
      node = { kind: 'or', left: node, right: and(token) };
    }
    return node;
  }

  const lists: FilterList[] = [];
  let before: Token | undefined;
  for (;;) {
    const node = or(before);
    lists.push({ node, openOnly: !mentionsCompleted(node) });
    const token = peek();
    if (token === undefined) break;
    if (token.type === ',') {
      at += 1;
      before = token;
      continue;
    }
    if (token.type === ')') fail(')', token.index, 'this ) closes nothing');
    // Two terms in a row: the second starts where an operator was expected.
    fail(describe(token), token.index, 'put & or | before it');
  }
  if (end === 0) throw new FilterError('the filter is empty', 0, 0);
  return { lists };
}

function mentionsCompleted(node: FilterNode): boolean {
  switch (node.kind) {
    case 'completed':
      return true;
    case 'and':
    case 'or':
      return mentionsCompleted(node.left) || mentionsCompleted(node.right);
    case 'not':
      return mentionsCompleted(node.node);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The evaluator

/** The fields of a todo a filter looks at. */
type FilterableTodo = Pick<
  Todo,
  | 'title'
  | 'description'
  | 'groupId'
  | 'completed'
  | 'created'
  | 'dueDate'
  | 'dueTime'
  | 'repeat'
  | 'customRepeat'
  | 'tags'
  | 'priority'
  | 'parentId'
  | 'startDate'
>;

/** What search compares, once per todo object (lists are evaluated again on every change). */
const searchTexts = new WeakMap<FilterableTodo, string>();
const searchTextOf = (todo: FilterableTodo): string => {
  let text = searchTexts.get(todo);
  if (text === undefined) {
    const joined = [todo.title, todo.description ?? '', ...todo.tags].join(' ');
    // Plain ASCII, most todos, decomposes to itself: searchWords' words without its Unicode work.
    text = (
      !/[^\t\n\r\x20-\x7e]/.test(joined)
        ? (joined.toLowerCase().match(/[a-z0-9]+/g) ?? [])
        : searchWords(joined)
    ).join(' ');
    searchTexts.set(todo, text);
  }
  return text;
};

/** Whether the todo matches the node (the open-only rule apart). */
function matchesNode(node: FilterNode, todo: FilterableTodo): boolean {
  switch (node.kind) {
    case 'and':
      return matchesNode(node.left, todo) && matchesNode(node.right, todo);
    case 'or':
      return matchesNode(node.left, todo) || matchesNode(node.right, todo);
    case 'not':
      return !matchesNode(node.node, todo);
    case 'due':
      return (
        todo.dueDate !== null &&
        (node.from === null || todo.dueDate >= node.from) &&
        (node.to === null || todo.dueDate <= node.to)
      );
    case 'noDate':
      return todo.dueDate === null;
    case 'overdue':
      return (
        todo.dueDate !== null &&
        (todo.dueDate < node.today ||
          (todo.dueDate === node.today && todo.dueTime !== null && todo.dueTime < node.time))
      );
    case 'group':
      return todo.groupId !== null && node.ids.includes(todo.groupId);
    case 'tag':
      return todo.tags.some((tag) => tag.toLowerCase() === node.name);
    case 'noTags':
      return todo.tags.length === 0;
    case 'priority':
      return todo.priority === node.value;
    case 'search': {
      const text = searchTextOf(todo);
      return node.words.every((word) => text.includes(word));
    }
    case 'recurring':
      return todo.repeat !== null || todo.customRepeat !== undefined;
    case 'subtask':
      return todo.parentId !== null;
    case 'completed':
      return todo.completed;
    case 'created': {
      const created = Date.parse(todo.created);
      return node.before ? created < node.instant : created >= node.instant;
    }
    case 'start':
      return (
        todo.startDate !== null &&
        (node.before ? todo.startDate < node.date : todo.startDate > node.date)
      );
  }
}

/** Whether the todo is in the list. */
const inFilterList = (list: FilterList, todo: FilterableTodo): boolean =>
  (!list.openOnly || !todo.completed) && matchesNode(list.node, todo);

/**
 * The todos the filter shows: each list's in the given order, the lists one after another, a
 * todo in several lists only in the first.
 */
export function filterTodos<T extends FilterableTodo>(filter: Filter, todos: readonly T[]): T[] {
  if (filter.lists.length === 1 && filter.lists[0]) {
    const list = filter.lists[0];
    return todos.filter((todo) => inFilterList(list, todo));
  }
  const shown = new Set<T>();
  for (const list of filter.lists) {
    for (const todo of todos) if (!shown.has(todo) && inFilterList(list, todo)) shown.add(todo);
  }
  return [...shown];
}
