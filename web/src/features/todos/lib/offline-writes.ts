import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { QueryClient } from '@tanstack/react-query';
import type { CreateTodoBody, PatchTodoBody, Todo, UpdateTodoBody } from '@tally/contract';
import { etagOfVersion } from '@tally/contract/constants';
import { routes } from '@tally/contract/routes';
import { cleanDescription, cleanTitle } from '@tally/contract/todo-text';
import { defaultTodo, TODO_WRITABLE_FIELDS } from '@tally/contract/todo-shape';
import type { OfflineCall } from '#web/lib/outbox';
import type { EditedField } from './edit-undo';
import { findTodo } from './todo-cache';

/**
 * The todo calls' answers while offline (docs/product.md, Offline): the API client queues every
 * call the route table marks offline-capable (lib/api.ts, lib/outbox.ts); these say what the
 * screen shows meanwhile, what the server would most likely answer. A new todo gets a negative
 * stand-in id until the server gives its own. An edit queues only the fields it changes (PATCH),
 * so the server keeps what another device changed meanwhile. Made only offline, so the queue's
 * code loads on first use (precached by the service worker, so offline too).
 */

/** A todo with some of its fields changed, as the server keeps them: the one optimistic patch. */
function patched(before: Todo, fields: PatchTodoBody): Todo {
  const after: Todo = { ...before, ...fields };
  // The original API's one reminder is the first of them, as the server answers it.
  if (fields.reminders !== undefined) after.remindMinutesBefore = fields.reminders[0] ?? null;
  return {
    ...after,
    title: cleanTitle(after.title),
    description: cleanDescription(after.description),
  };
}

/**
 * What makes a queued change of a todo replay safely: If-Match with the version it started from
 * (changed meanwhile, it is a conflict to show, lib/outbox.ts, never an overwrite) and the words
 * that conflict names it by. Nothing when the screen does not hold the todo.
 */
const startedFrom = (todo: Todo | undefined, label: Label, version = todo?.version) =>
  todo === undefined || version === undefined
    ? {}
    : { headers: { 'if-match': etagOfVersion(version) }, label: label(todo.title) };

/** The words a conflict names a change by, with the todo's title, in the active language. */
type Label = (title: string) => string;

/** The changes made in one call, each named whole: a language puts the title where it goes. */
const CHANGES = {
  moving: (title) => i18n._(msg`moving “${title}”`),
  reparenting: (title) => i18n._(msg`the parent of “${title}”`),
  deleting: (title) => i18n._(msg`deleting “${title}”`),
  skipping: (title) => i18n._(msg`skipping “${title}”`),
  completing: (title) => i18n._(msg`completing “${title}”`),
  reopening: (title) => i18n._(msg`reopening “${title}”`),
} satisfies Record<string, Label>;

/** "the title, due date of …": the fields a change touched. */
const fieldsOf =
  (words: readonly string[]): Label =>
  (title) => {
    const fields = words.join(', ');
    return i18n._(msg`the ${fields} of “${title}”`);
  };

/** A change of a todo the server answers later: the screen keeps `result` meanwhile. */
export const changeOf = <R>(
  result: R,
  todo: Todo | undefined,
  change: keyof typeof CHANGES,
): OfflineCall<R> => ({
  result,
  ...startedFrom(todo, CHANGES[change]),
});

/** A new todo, shown under a stand-in id. */
export async function createdOffline(body: CreateTodoBody): Promise<OfflineCall<Todo>> {
  const id = (await import('#web/lib/outbox')).newTempId();
  const result = defaultTodo({
    ...body,
    id,
    title: cleanTitle(body.title),
    description: cleanDescription(body.description),
  });
  return { result, tempId: id };
}

/**
 * A full update (PUT), queued as a PATCH of the fields it changes. `known`: the todo as it was
 * before this change, where the screen has already shown the change (the completion checkbox);
 * otherwise the cached todo is the one before.
 */
export async function updatedOffline(
  queryClient: QueryClient,
  id: number,
  body: UpdateTodoBody,
  known?: Todo,
  version?: number,
): Promise<OfflineCall<Todo>> {
  const before = known ?? findTodo(queryClient, id);
  const next: PatchTodoBody = {};
  for (const field of TODO_WRITABLE_FIELDS) {
    if (!(field in body)) continue;
    const value = field === 'description' ? cleanDescription(body.description) : body[field];
    const unchanged = before && JSON.stringify(before[field]) === JSON.stringify(value ?? null);
    if (!unchanged) Object.assign(next, { [field]: value ?? null });
  }
  // PUT clears an omitted description or group; the same edit as a PATCH says so.
  if (!('description' in body) && before?.description) next.description = null;
  if (!('groupId' in body) && before?.groupId !== null && before) next.groupId = null;
  const fallback = defaultTodo({ id, title: body.title, completed: body.completed });
  const result = patched(before ?? fallback, next);
  const changed = Object.keys(next) as (keyof PatchTodoBody)[];
  if (changed.length === 0) return { result, send: null };
  const { fieldWords } = await import('./edit-undo');
  const label =
    changed.length === 1 && changed[0] === 'completed'
      ? CHANGES[next.completed ? 'completing' : 'reopening']
      : fieldsOf(
          changed.map((field) =>
            field === 'completed' ? i18n._(msg`completion`) : fieldWords(field as EditedField),
          ),
        );
  return {
    result,
    send: { route: routes.todos.patch, params: { id }, body: next },
    ...startedFrom(before, label, version ?? before?.version),
  };
}

/**
 * Some fields of a todo (the detail view's saves), queued as they are; the screen shows the todo
 * with them (`known`: the todo as the view holds it, where the lists no longer do). Replayed
 * with the version it started from: changed meanwhile, it is a conflict to show, named by what
 * the person changed.
 */
export async function patchedOffline(
  queryClient: QueryClient,
  known: Todo,
  body: PatchTodoBody,
  version?: number,
): Promise<OfflineCall<Todo>> {
  const before = findTodo(queryClient, known.id) ?? known;
  const result = patched(before, body);
  if (version === undefined) return { result };
  const { fieldWords } = await import('./edit-undo');
  const words = (Object.keys(body) as EditedField[]).map(fieldWords);
  return { result, label: fieldsOf(words)(before.title) };
}
