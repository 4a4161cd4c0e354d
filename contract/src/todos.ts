import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';
import {
  BULK_IDS_MAX,
  FILTER_QUERY_MAX,
  LIMITS,
  PRIORITIES,
  TAG_NAME_PATTERN,
  TODO_SORTS,
  NEXT_CURSOR_HEADER,
  SEARCH_QUERY_MAX,
  TODO_PAGE_DEFAULT,
  TODO_PAGE_MAX,
} from './constants.js';
import {
  ErrorSchema,
  IdParamsSchema,
  IfMatchHeadersSchema,
  NOT_BLANK,
  NO_NUL,
  VersionSchema,
} from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { WEEKDAYS, type Weekday } from './dates.js';
import { routes } from './routes.js';

const title = Type.String({ minLength: 1, maxLength: LIMITS.todoTitleMax, pattern: NOT_BLANK });
const description = Type.Union([
  Type.String({ maxLength: LIMITS.todoDescriptionMax, pattern: NO_NUL }),
  Type.Null(),
]);
const groupId = Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
  description: "One of the caller's groups, or null for no group",
});

/** Nullable answer fields (nullable.ts: type lists, not anyOf, for the serialiser's sake). */
const nullableString = Nullable(Type.String());
const nullableInteger = Nullable(Type.Integer());

// The list lives with the other calendar rules (dates.ts), which the web imports without schemas.
export { WEEKDAYS, type Weekday };
const weekday = Type.Union(
  WEEKDAYS.map((day) => Type.Literal(day)),
  { description: 'mon … sun' },
);

/**
 * How a todo repeats (docs/product.md, Planning). Completing it (or skipping) moves its due date
 * to the next occurrence, counted from the due date or from the day it was completed. Monthly
 * and yearly rules keep their day (the 31st stays the 31st, falling on the month's last day in
 * shorter months); the server fills `monthDay` from the due date when neither `monthDay` nor
 * `nthWeekday` is given.
 */
export const RepeatSchema = Type.Object(
  {
    every: Type.Integer({ minimum: 1, maximum: 365, description: 'Every n units' }),
    unit: Type.Union([
      Type.Literal('day'),
      Type.Literal('week'),
      Type.Literal('month'),
      Type.Literal('year'),
    ]),
    weekdays: Type.Optional(
      Type.Array(weekday, {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'Weekly only: the days of the week it falls on',
      }),
    ),
    monthDay: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 31,
        description: "Monthly or yearly: the day of the month (the month's last day when shorter)",
      }),
    ),
    nthWeekday: Type.Optional(
      Type.Object(
        {
          n: Type.Union([
            Type.Literal(1),
            Type.Literal(2),
            Type.Literal(3),
            Type.Literal(4),
            Type.Literal(5),
            Type.Literal(-1),
          ]),
          weekday,
        },
        {
          additionalProperties: false,
          description: 'Monthly only: the nth weekday of the month (-1: the last one)',
        },
      ),
    ),
    from: Type.Union([Type.Literal('due'), Type.Literal('completion')], {
      description: 'Count the next occurrence from the due date, or from the day it was completed',
    }),
  },
  { additionalProperties: false },
);
export type Repeat = Static<typeof RepeatSchema>;

const dueDate = Type.Union(
  [
    Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a real date' }),
    Type.Null(),
  ],
  { description: "The day it is due, in the user's own calendar; null for none" },
);
const dueTime = Type.Union(
  [
    Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm, 00:00-23:59' }),
    Type.Null(),
  ],
  { description: 'The time on the due date; only with a due date' },
);
const repeat = Type.Union([RepeatSchema, Type.Null()], {
  description: 'How it repeats; needs a due date; null for never',
});

const remindMinutesBefore = Type.Union(
  [Type.Integer({ minimum: 0, maximum: LIMITS.remindMinutesBeforeMax }), Type.Null()],
  {
    description:
      'The first reminder of `reminders` (the largest offset: it goes out first), in minutes ' +
      'before the due time (0: at it); needs a dueTime; null for none. Written, it replaces ' +
      'only that reminder and keeps the others (null removes only it); with `reminders` in the ' +
      'same request it must agree with them.',
  },
);

const reminders = Type.Array(Type.Integer({ minimum: 0, maximum: LIMITS.remindMinutesBeforeMax }), {
  maxItems: LIMITS.remindersPerTodoMax,
  description:
    `Its reminders, at most ${LIMITS.remindersPerTodoMax}, each in minutes before the due ` +
    'time (0: at it): each goes out once per occurrence. Any order, repeats ignored; ' +
    'answered largest first (the first to go out). Needs a dueTime; [] for none.',
});

/** The planning fields, all optional on create and update (omitted on update = unchanged). */
const planning = {
  dueDate: Type.Optional(dueDate),
  dueTime: Type.Optional(dueTime),
  repeat: Type.Optional(repeat),
  remindMinutesBefore: Type.Optional(remindMinutesBefore),
  reminders: Type.Optional(reminders),
};

export const TagNameSchema = Type.String({
  pattern: TAG_NAME_PATTERN,
  description: `1-${LIMITS.tagNameMax} characters without spaces or commas`,
});

const priority = Type.Union(
  PRIORITIES.map((value) => Type.Literal(value)),
  { description: '0 none, 1 low, 2 medium, 3 high' },
);

/**
 * The task model's fields (docs/product.md, Tags, priority and subtasks), unknown to the
 * original API's clients: optional on create and update, and kept as they are when an update
 * omits them.
 */
const details = {
  tags: Type.Optional(
    Type.Array(TagNameSchema, {
      maxItems: LIMITS.tagsPerTodoMax,
      description:
        `Its tags, at most ${LIMITS.tagsPerTodoMax}; [] clears. A name the caller already ` +
        'has in another case is that tag (the first spelling wins).',
    }),
  ),
  priority: Type.Optional(priority),
  parentId: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
      description:
        "The todo it is a subtask of: one of the caller's todos (else 404), never itself or " +
        `one of its subtasks, at most ${LIMITS.subtaskLevelsMax} levels deep; null for top level`,
    }),
  ),
  startDate: Type.Optional(
    Type.Union(
      [
        Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a real date' }),
        Type.Null(),
      ],
      {
        description:
          'Hidden until this day: left out of Today and Upcoming before it; null for none',
      },
    ),
  ),
  durationMinutes: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: LIMITS.durationMinutesMax }), Type.Null()], {
      description:
        `How many minutes it takes, 1-${LIMITS.durationMinutesMax}: with a due time, the ` +
        "calendar's week view shows it as a block from then; null for none",
    }),
  ),
};

export const TodoSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: nullableString,
    groupId: nullableInteger,
    completed: Type.Boolean(),
    created: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
    dueDate: nullableString,
    dueTime: nullableString,
    repeat: Nullable(RepeatSchema),
    remindMinutesBefore: nullableInteger,
    reminders: Type.Array(Type.Integer(), {
      description: 'Its reminders in minutes before the due time, largest (first to go out) first',
    }),
    tags: Type.Array(Type.String(), { description: 'Its tags, A-Z' }),
    priority: Type.Integer({
      minimum: 0,
      maximum: 3,
      description: '0 none, 1 low, 2 medium, 3 high',
    }),
    parentId: nullableInteger,
    startDate: nullableString,
    durationMinutes: nullableInteger,
    position: Type.Number({
      description: 'Its place in the manual order among its siblings (lower first)',
    }),
    version: VersionSchema,
    customRepeat: Type.Optional(
      Type.String({
        description:
          'A repeat rule a calendar app set over CalDAV that Tally cannot represent (RFC 5545 ' +
          'RRULE text, e.g. FREQ=WEEKLY;COUNT=5): read-only here, kept for the app; absent when none',
      }),
    ),
  },
  { additionalProperties: false },
);
export type Todo = Static<typeof TodoSchema>;

export const TodoListSchema = Type.Array(TodoSchema, {
  description: 'Newest first',
});

/**
 * Opt-in paging of GET /api/todos (docs/product.md, API: without parameters the whole list). With
 * `limit` (or `cursor`), the answer is one page, newest first, and the `x-next-cursor` header
 * carries the cursor of the next page; no header means the last page.
 */
export const TodoListQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TODO_PAGE_MAX,
        description: `Page size, 1-${TODO_PAGE_MAX} (${TODO_PAGE_DEFAULT} when only cursor is given)`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: `The ${NEXT_CURSOR_HEADER} header of the previous page`,
      }),
    ),
    view: Type.Optional(
      Type.Union([Type.Literal('today'), Type.Literal('upcoming'), Type.Literal('overdue')], {
        description:
          "Open todos by due date, in the caller's time zone (x-time-zone), soonest first: " +
          'today = due today or overdue; upcoming = due from today to 6 days later; ' +
          'overdue = due before now. Without it, the whole list as always.',
      }),
    ),
    q: Type.Optional(
      Type.String({
        maxLength: SEARCH_QUERY_MAX,
        description:
          'Search: the todos whose title or description hold every word of q (case and ' +
          'accents ignored; the last word may be the start of a word, so "buy mil" finds ' +
          '"Buy milk"), best match first. Punctuation and search syntax are plain text. ' +
          'Pages with limit and cursor like the list; not with view.',
      }),
    ),
    tag: Type.Optional(
      Type.String({
        pattern: TAG_NAME_PATTERN,
        description: 'Only todos with this tag (any case); combines with every other parameter',
      }),
    ),
    priority: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3,
        description: 'Only todos of this priority; combines with every other parameter',
      }),
    ),
    filter: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: FILTER_QUERY_MAX,
        description:
          'Only the todos a filter query shows (Todoist syntax: today, overdue, no date, ' +
          'due before: Dec 12, next 7 days, #Group, @tag, p1-p4, search: words, recurring, ' +
          'subtask, no tags, created/start before:/after:, completed; & | ! and parentheses), ' +
          "open todos unless it names completed, dates in the account's time zone. Several " +
          'lists (a, b) answer one after another and are not paged. A query it cannot read is ' +
          'a 400 saying where. Combines with view, sort, tag, priority and paging; not with q.',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        TODO_SORTS.map((sort) => Type.Literal(sort)),
        {
          description:
            'created (the default: newest first), due (soonest first, undated last), priority ' +
            '(highest first), title (A-Z) or manual (the order of POST /api/todos/{id}/move). ' +
            'Other than created, not with limit, cursor or q.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TodoListQuery = Static<typeof TodoListQuerySchema>;

/**
 * How many todos the caller has in all, without a group and in each group: the /todos filter
 * tabs' counts while the list itself is still arriving page by page.
 */
export const TodoCountsSchema = Type.Object(
  {
    all: Type.Integer({ minimum: 0 }),
    ungrouped: Type.Integer({ minimum: 0 }),
    groups: Type.Array(
      Type.Object(
        { groupId: Type.Integer(), count: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false },
      ),
      { description: 'Only groups that hold todos' },
    ),
  },
  { additionalProperties: false },
);
export type TodoCounts = Static<typeof TodoCountsSchema>;

export const CreateTodoBodySchema = Type.Object(
  {
    title,
    description: Type.Optional(description),
    groupId: Type.Optional(groupId),
    ...planning,
    ...details,
  },
  { additionalProperties: false },
);
export type CreateTodoBody = Static<typeof CreateTodoBodySchema>;

/**
 * A full replacement of the original fields (omitted description or groupId become null); the
 * planning fields and the task model's, unknown to older clients, stay as they are when omitted.
 */
export const UpdateTodoBodySchema = Type.Object(
  {
    title,
    description: Type.Optional(description),
    groupId: Type.Optional(groupId),
    completed: Type.Boolean(),
    ...planning,
    ...details,
  },
  { additionalProperties: false },
);
export type UpdateTodoBody = Static<typeof UpdateTodoBodySchema>;

export const BULK_ACTIONS = [
  'complete',
  'reopen',
  'move',
  'delete',
  'restore',
  'tag',
  'untag',
  'priority',
  'parent',
  'due',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/**
 * One change to many todos at once (docs/product.md, Bulk changes and undo). `move` needs
 * `groupId` (null: no group); `restore` brings todos back from the trash (the undo of `delete`);
 * `tag` and `untag` need `tag`; `priority` needs `priority`; `parent` needs `parentId` (null: the
 * top level); `due` needs `dueDate` (null: no date, which clears the time and repeat with it).
 */
export const BulkBodySchema = Type.Object(
  {
    ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
      minItems: 1,
      maxItems: BULK_IDS_MAX,
      description: `The todos' ids, 1-${BULK_IDS_MAX} (a repeated id counts once)`,
    }),
    action: Type.Union(
      BULK_ACTIONS.map((action) => Type.Literal(action)),
      { description: BULK_ACTIONS.join(', ') },
    ),
    groupId: Type.Optional(groupId),
    tag: Type.Optional(TagNameSchema),
    priority: Type.Optional(priority),
    parentId: details.parentId,
    dueDate: Type.Optional(dueDate),
    versions: Type.Optional(
      Type.Record(Type.String({ pattern: '^[1-9][0-9]{0,9}$' }), Type.Integer({ minimum: 1 }), {
        description:
          'The version each todo had when this change was chosen, by id (e.g. {"12": 3}); ' +
          'an id of `ids` left out is changed whatever its version. When any named todo has ' +
          'another version now (restore: in the trash), the answer is 412 with those todos ' +
          'as they are, and nothing changes.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBodySchema>;

/**
 * Only the fields to change; every omitted field keeps the server's value (null still clears).
 * Offline edits are sent this way, so a field changed meanwhile on another device and not
 * touched here keeps that change (docs/product.md, Offline).
 */
export const PatchTodoBodySchema = Type.Partial(UpdateTodoBodySchema, {
  additionalProperties: false,
});
export type PatchTodoBody = Static<typeof PatchTodoBodySchema>;

/** Where POST /api/todos/{id}/move puts the todo: right before or right after a sibling. */
export const MoveTodoBodySchema = Type.Object(
  {
    beforeId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description: 'Just before this todo (same parent)',
      }),
    ),
    afterId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description: 'Just after this todo (same parent)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of beforeId and afterId' },
);
export type MoveTodoBody = Static<typeof MoveTodoBodySchema>;

/** The views whose sort order the web app keeps on the server: all, today, group-12, … */
export const SORT_VIEW_PATTERN = '^[a-z0-9-]{1,40}$';
/** How many views may keep a sort: every screen of the web app, with room for many groups. */
export const SORT_VIEWS_MAX = 200;

/** The sort chosen per view, e.g. {"all": "manual", "today": "priority"}. */
export const TodoSortsSchema = Type.Record(
  Type.String({ pattern: SORT_VIEW_PATTERN }),
  Type.Union(TODO_SORTS.map((sort) => Type.Literal(sort))),
  { description: 'The sort chosen per view; a view not named sorts by created' },
);
export type TodoSorts = Static<typeof TodoSortsSchema>;

export const SetTodoSortBodySchema = Type.Object(
  {
    view: Type.String({
      pattern: SORT_VIEW_PATTERN,
      description: 'The view: all, today, upcoming, overdue, group-{id}, tag-{name}, …',
    }),
    sort: Type.Union(
      TODO_SORTS.map((sort) => Type.Literal(sort)),
      { description: TODO_SORTS.join(', ') },
    ),
  },
  { additionalProperties: false },
);
export type SetTodoSortBody = Static<typeof SetTodoSortBodySchema>;

export const todosApi = defineEndpoints('todos', routes.todos, {
  list: {
    summary: "The caller's todos, newest first",
    description:
      'Without parameters, the whole list. With `limit` (or `cursor`), one page; the ' +
      `\`${NEXT_CURSOR_HEADER}\` response header then holds the cursor of the next page and ` +
      'is absent on the last one.',
    query: TodoListQuerySchema,
    responses: { 200: TodoListSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  counts: {
    summary: 'How many todos the caller has: in all, ungrouped and per group',
    responses: { 200: TodoCountsSchema, 401: ErrorSchema },
  },
  create: {
    summary: 'Create a todo',
    body: CreateTodoBodySchema,
    responses: { 201: TodoSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  get: {
    summary: 'One todo as it is now',
    description:
      'Its `ETag` header holds its version, the `If-Match` of the next write. A todo in the ' +
      "trash, or not the caller's, is 404.",
    params: IdParamsSchema,
    responses: { 200: TodoSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  update: {
    summary: 'Replace a todo (title, description, group, completed; due date, time, repeat)',
    description:
      'Completing a repeating todo counts the completion, then moves its due date to the next ' +
      'occurrence and leaves it open. Every write to one todo answers its new version in the ' +
      '`ETag` header and takes an `If-Match` header: a todo changed meanwhile gets 412 with ' +
      'the todo as it is now, and nothing changes.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    body: UpdateTodoBodySchema,
    responses: {
      200: TodoSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoSchema,
    },
  },
  patch: {
    summary: 'Change some fields of a todo; the omitted ones stay as they are',
    description:
      'The same rules as the full update (a repeating todo completed moves on). With an ' +
      '`Idempotency-Key` header, as every write, a retry gets the first answer back. With ' +
      '`If-Match`, 412 and the todo as it is now when it changed since that version.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    body: PatchTodoBodySchema,
    responses: {
      200: TodoSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoSchema,
    },
  },
  move: {
    summary: 'Move a todo in the manual order',
    description:
      'Puts it just before `beforeId` or just after `afterId` (exactly one), a todo with the ' +
      'same parent; the order is kept on the server, so every device shows it (?sort=manual).',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    body: MoveTodoBodySchema,
    responses: {
      200: TodoSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoSchema,
    },
  },
  sorts: {
    summary: 'The sort the user chose for each view',
    responses: { 200: TodoSortsSchema, 401: ErrorSchema },
  },
  setSort: {
    summary: "Keep the user's sort for one view, for every device",
    body: SetTodoSortBodySchema,
    responses: { 200: TodoSortsSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  skip: {
    summary: 'Skip the current occurrence of a repeating todo',
    description: 'Moves the due date to the next occurrence without counting a completion.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    responses: {
      200: TodoSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoSchema,
    },
  },
  remove: {
    summary: 'Move a todo to the trash',
    description:
      'It leaves every list and view at once, counts as deleted in the statistics, and can be ' +
      'restored from the trash (POST /api/trash/{id}/restore) for 30 days.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    responses: {
      204: NoContent('Deleted'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoSchema,
    },
  },
  bulk: {
    summary: 'Complete, reopen, move, delete or restore many todos at once',
    description:
      "One transaction: every id must be one of the caller's todos (for restore: in the " +
      "caller's trash), else 404 and nothing changes. Each todo changed counts as the single " +
      'call would (a completion moves a repeating todo to its next occurrence); todos already ' +
      'in that state are left alone. Answers the todos changed, as they are now (delete: as ' +
      'they went to the trash). Undo: reopen what was completed, move each back to its group, ' +
      'restore what was deleted. With `versions`, a todo changed since it was read is a 412 ' +
      'with the todos that changed, and nothing changes.',
    body: BulkBodySchema,
    responses: {
      200: TodoListSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: TodoListSchema,
    },
  },
});
