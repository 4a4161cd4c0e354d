import { t, msg } from '@lingui/core/macro';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, PatchTodoBody, Todo, UpdateTodoBody } from '@tally/contract';
import { etagOfVersion } from '@tally/contract/constants';
import { api } from '#web/lib/api';
import { conflictOf } from '#web/lib/api-client';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import { dueLabel } from '../lib/dates';
import type { EditedField } from '../lib/edit-undo';
import { cancelTodoRefetches, findTodo, refreshViews, replaceTodo } from '../lib/todo-cache';
import { TODO_FORM_FIELDS } from '../lib/todo-fields';

/** What the screen shows while offline, loaded then (lib/offline-writes.ts). */
const offlineWrites = () => import('../lib/offline-writes');

const OPERATION = msg`Update todo failed`;

/**
 * A full replacement of title, description, groupId and completed; the planning fields are sent
 * only when given (omitted, the server keeps them). Offline, only the changed fields are queued
 * (lib/offline-writes.ts).
 */
const updateTodo = (
  queryClient: QueryClient,
  id: number,
  body: UpdateTodoBody,
  before?: Todo,
  version?: number,
) =>
  api.todos.update({
    params: { id },
    body,
    headers: { 'if-match': version === undefined ? undefined : etagOfVersion(version) },
    operation: OPERATION,
    offline: async () =>
      (await offlineWrites()).updatedOffline(queryClient, id, body, before, version),
  });

/** Changed elsewhere (a 412): every list shows the todo as it is now. Answers it, or null. */
function showCurrent(queryClient: QueryClient, error: unknown): Todo | null {
  const current = conflictOf<Todo>(error);
  if (current) replaceTodo(queryClient, current.id, () => current);
  return current;
}

const bodyOf = (todo: Todo): UpdateTodoBody => ({
  title: todo.title,
  description: todo.description,
  groupId: todo.groupId,
  completed: todo.completed,
});

/** Every field as it was: what undoing a completion puts back (the planning fields too). */
const previousOf = (todo: Todo): UpdateTodoBody => ({
  ...bodyOf(todo),
  dueDate: todo.dueDate,
  dueTime: todo.dueTime,
  repeat: todo.repeat,
  // A repeat's advance moves the start date with the due date.
  startDate: todo.startDate,
});

/** Offers to put a todo back as it was before a change (lib/undo.ts). */
function offerPutBack(
  queryClient: QueryClient,
  text: string,
  id: number,
  body: UpdateTodoBody,
): void {
  offerUndo(text, async () => {
    const restored = await updateTodo(queryClient, id, body);
    replaceTodo(queryClient, restored.id, () => restored);
    refreshViews(queryClient);
    void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
  });
}

/**
 * Only the fields given (PATCH): a field another tab or device changed meanwhile, and not among
 * them, keeps that change. With `version` (the one the change started from) as If-Match, a todo
 * changed since is a 412 with the todo as it is now (lib/api-error.ts, conflictOf), never an
 * overwrite. Offline, queued as it is, with that version.
 */
const patchTodo = (queryClient: QueryClient, todo: Todo, body: PatchTodoBody, version?: number) =>
  api.todos.patch({
    params: { id: todo.id },
    body,
    headers: { 'if-match': version === undefined ? undefined : etagOfVersion(version) },
    operation: OPERATION,
    offline: async () => (await offlineWrites()).patchedOffline(queryClient, todo, body, version),
  });

/** A save of the detail view (components/TodoEditForm.tsx, saving as the person leaves). */
export interface FieldsSave {
  /** The todo as the view was opened on it: what Undo puts back. */
  opened: Todo;
  body: PatchTodoBody;
  /** The version the change started from, sent as If-Match. */
  version: number;
  /** Every field the view has saved since it opened, this save's too: what Undo reverts. */
  saved: readonly EditedField[];
  /** Cancel putting the opened values back: nothing to offer to undo. */
  quiet?: boolean;
}

/**
 * Sends a detail view's save and puts the answer in place, with an Undo that takes back every
 * field the view saved (docs/product.md, Undo), by a PATCH of those fields alone.
 */
export async function saveTodoFields(queryClient: QueryClient, save: FieldsSave): Promise<Todo> {
  const { opened, body, version, saved, quiet = false } = save;
  const updated = await patchTodo(queryClient, opened, body, version).catch((error: unknown) => {
    // The view shows the conflict beside the fields.
    showCurrent(queryClient, error);
    throw error;
  });
  replaceTodo(queryClient, updated.id, () => updated);
  refreshViews(queryClient);
  void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
  if (!quiet) {
    // The toast's text, loaded on the first save (bundle budget).
    const { fieldsUndoOf } = await import('../lib/edit-undo');
    const groups = queryClient.getQueryData<Group[]>(queryKeys.groups) ?? [];
    const undo = fieldsUndoOf(opened, updated, saved, groups);
    if (undo) {
      offerUndo(undo.text, async () => {
        const restored = await patchTodo(queryClient, updated, undo.body);
        replaceTodo(queryClient, restored.id, () => restored);
        refreshViews(queryClient);
        void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
      });
    }
  }
  return updated;
}

/**
 * The detail view's saves while it is open: a refused title or date is said beside its field,
 * and the view stays open on it.
 */
export function useSaveTodoFields() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: FieldsSave) => saveTodoFields(queryClient, save),
    meta: { operation: OPERATION, fieldErrors: TODO_FORM_FIELDS, showsConflicts: true },
  });
}

/**
 * What the Undo toast of a completion says: a repeating todo that was completed stays open with
 * its next date, so the toast names that date (as Skip's does), in the one message the action gets.
 */
function completionText(before: Todo, after: Todo): string {
  const { title } = before;
  if (before.completed) return t`Reopened "${title}"`;
  if (after.completed || !before.repeat || !after.dueDate) return t`Completed "${title}"`;
  const next = dueLabel(after, new Date()) ?? '';
  return t`Completed "${title}". Next due ${next}.`;
}

/** A row's inline edit: the todo as the row shows it, and the fields the person changed. */
interface RowEdit {
  todo: Todo;
  body: PatchTodoBody;
}

/** Saves an inline edit; the todo is replaced in place when the server answers. */
export function useUpdateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    // Only the fields the person changed, with the version the row shows: changed elsewhere
    // meanwhile, the row shows the todo as it is now under the form and the notice says so; Save
    // again sends those fields on that version, so the other fields keep the change made there.
    mutationFn: ({ todo, body }: RowEdit) =>
      patchTodo(queryClient, todo, body, todo.version).catch((error: unknown) => {
        showCurrent(queryClient, error);
        throw error;
      }),
    onMutate: ({ todo }) => ({ previous: findTodo(queryClient, todo.id) }),
    onSuccess: (updated, _body, context) => {
      replaceTodo(queryClient, updated.id, () => updated);
      const previous = context?.previous;
      if (previous) {
        // The edit's toast text and undo, loaded on the first save (bundle budget).
        void import('../lib/edit-undo').then(({ editUndoOf }) => {
          const groups = queryClient.getQueryData<Group[]>(queryKeys.groups) ?? [];
          const undo = editUndoOf(previous, updated, groups);
          if (undo) offerPutBack(queryClient, undo.text, updated.id, undo.body);
        });
      }
      refreshViews(queryClient);
    },
    // A refused title or date is said beside its field in the edit form, not in a notice.
    meta: {
      operation: OPERATION,
      fieldErrors: TODO_FORM_FIELDS,
      invalidates: [queryKeys.statistics],
    },
  });
}

/**
 * The completion checkbox: flips at once (optimistic) and flips back, with a visible message,
 * when the server refuses or cannot be reached (docs/product.md, Differences, item 4). A
 * repeating todo comes back open, due on its next date.
 */
export function useToggleTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    // The whole todo is sent (the specification's PUT), so with the version it was read at: a
    // title changed elsewhere meanwhile is not put back. A completion does not clash with such a
    // change: it is sent again on the todo as it is now, unless that is already done or undone.
    mutationFn: (todo: Todo) =>
      updateTodo(
        queryClient,
        todo.id,
        { ...bodyOf(todo), completed: !todo.completed },
        todo,
        todo.version,
      ).catch((error: unknown) => {
        const current = conflictOf<Todo>(error);
        if (current?.completed !== todo.completed) throw error;
        const body = { ...bodyOf(current), completed: !todo.completed };
        return updateTodo(queryClient, todo.id, body, todo, current.version);
      }),
    onMutate: async (todo) => {
      await cancelTodoRefetches(queryClient);
      replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: !todo.completed }));
    },
    onSuccess: (updated, todo) => {
      replaceTodo(queryClient, updated.id, () => updated);
      offerPutBack(queryClient, completionText(todo, updated), todo.id, previousOf(todo));
      refreshViews(queryClient);
    },
    onError: (error, todo) => {
      if (!showCurrent(queryClient, error)) {
        replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: todo.completed }));
      }
      reportMutationError(error, OPERATION);
    },
    // No operation here: onError reports the failure itself, after flipping the box back.
    meta: { invalidates: [queryKeys.statistics] },
  });
}
