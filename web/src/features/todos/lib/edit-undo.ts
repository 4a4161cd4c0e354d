import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { activeLocale } from '#web/lib/date-format';
import type { Group, PatchTodoBody, Todo, UpdateTodoBody } from '@tally/contract';

/** The fields an edit can change, with the words its Undo toast names them by. */
const EDITED_FIELDS = {
  title: msg`title`,
  description: msg`description`,
  groupId: msg`group`,
  dueDate: msg`due date`,
  dueTime: msg`time`,
  repeat: msg`repeat`,
  reminders: msg`reminders`,
  tags: msg`tags`,
  priority: msg`priority`,
  parentId: msg`parent`,
  startDate: msg`start date`,
} as const satisfies Partial<Record<keyof Todo, MessageDescriptor>>;
export type EditedField = keyof typeof EDITED_FIELDS;

/** What an edit's Undo names and puts back: the form's fields and a time block's length. */
const UNDONE_FIELDS = {
  ...EDITED_FIELDS,
  durationMinutes: msg`duration`,
} as const satisfies Partial<Record<keyof Todo, MessageDescriptor>>;
type UndoneField = keyof typeof UNDONE_FIELDS;

/** The words a field is named by ("due date"), in the toast and beside a conflict. */
export const fieldWords = (field: EditedField): string => i18n._(EDITED_FIELDS[field]);

const changedFields = (before: Todo, after: Todo): UndoneField[] =>
  (Object.keys(UNDONE_FIELDS) as UndoneField[]).filter(
    (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );

/** "title", "title and group", "title, time and group", as the language lists. */
const listOf = (words: readonly string[]) =>
  new Intl.ListFormat(activeLocale(), { type: 'conjunction' }).format(words);

/** The toast's text for an edit of `changed` (at least one field). */
function textOf(
  changed: readonly UndoneField[],
  previous: Todo,
  updated: Todo,
  groups: readonly Group[],
): string {
  const { title } = updated;
  if (changed.length === 1 && changed[0] === 'groupId') {
    const group = groups.find((candidate) => candidate.id === updated.groupId);
    const groupName = group ? group.name : t`No Group`;
    return t`Moved "${title}" to ${groupName}`;
  }
  if (changed.length === 1 && changed[0] === 'title') {
    const previousTitle = previous.title;
    return t`Renamed "${previousTitle}" to "${title}"`;
  }
  const fields = listOf(changed.map((field) => i18n._(UNDONE_FIELDS[field])));
  return t`Changed the ${fields} of "${title}"`;
}

/**
 * After an edit (api/update-todo.ts): the toast's text, naming what changed, and the body whose
 * save puts back exactly those fields (docs/product.md, Undo); the fields the edit left alone
 * keep whatever they are by then. Null when nothing changed.
 */
export function editUndoOf(
  previous: Todo,
  updated: Todo,
  groups: readonly Group[],
): { text: string; body: UpdateTodoBody } | null {
  const changed = changedFields(previous, updated);
  if (changed.length === 0) return null;
  const body: UpdateTodoBody = {
    title: updated.title,
    description: updated.description,
    groupId: updated.groupId,
    completed: updated.completed,
  };
  for (const field of changed) Object.assign(body, { [field]: previous[field] });
  return { text: textOf(changed, previous, updated, groups), body };
}

/**
 * After the detail view saved some fields: the same text, and a PATCH of only the fields among
 * `fields` that differ, back to `previous` (the todo as the view was opened on it). A field
 * changed meanwhile elsewhere and not among them is neither named nor sent.
 */
export function fieldsUndoOf(
  previous: Todo,
  updated: Todo,
  fields: readonly EditedField[],
  groups: readonly Group[],
): { text: string; body: PatchTodoBody } | null {
  const asked = new Set<UndoneField>(fields);
  const changed = changedFields(previous, updated).filter((field) => asked.has(field));
  if (changed.length === 0) return null;
  const body: PatchTodoBody = {};
  for (const field of changed) Object.assign(body, { [field]: previous[field] });
  return { text: textOf(changed, previous, updated, groups), body };
}
