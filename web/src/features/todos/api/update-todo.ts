import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, Todo, UpdateTodoBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { isOffline } from '#web/lib/online';
import { reportMutationError } from '#web/lib/mutation-errors';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import { dueLabel } from '../lib/dates';
import { queueUpdate } from '../lib/offline-writes';
import { cancelTodoRefetches, findTodo, refreshViews, replaceTodo } from '../lib/todo-cache';

const OPERATION = 'Update todo';

/**
 * A full replacement of title, description, groupId and completed; the planning fields are sent
 * only when given (omitted, the server keeps them). Offline, only the changed fields are queued
 * (lib/offline-writes.ts).
 */
const updateTodo = (queryClient: QueryClient, id: number, body: UpdateTodoBody, before?: Todo) =>
  isOffline()
    ? queueUpdate(queryClient, id, body, OPERATION, before)
    : api.todos.update({ params: { id }, body, operation: OPERATION });

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

/** The fields an edit can change, with the words its Undo toast names them by. */
const EDITED_FIELDS = {
  title: 'title',
  description: 'description',
  groupId: 'group',
  dueDate: 'due date',
  dueTime: 'time',
  repeat: 'repeat',
  remindMinutesBefore: 'reminder',
  tags: 'tags',
  priority: 'priority',
  parentId: 'parent',
  startDate: 'start date',
} as const satisfies Partial<Record<keyof Todo, string>>;
type EditedField = keyof typeof EDITED_FIELDS;

const changedFields = (before: Todo, after: Todo): EditedField[] =>
  (Object.keys(EDITED_FIELDS) as EditedField[]).filter(
    (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );

/** "title", "title and group", "title, time and group". */
const listOf = (words: readonly string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/**
 * After an edit: a toast that names what changed, whose Undo puts back exactly those fields
 * (docs/product.md, Undo); the fields the edit left alone keep whatever they are by then.
 */
function offerEditUndo(queryClient: QueryClient, previous: Todo, updated: Todo): void {
  const changed = changedFields(previous, updated);
  if (changed.length === 0) return;
  const body: UpdateTodoBody = { ...bodyOf(updated) };
  for (const field of changed) Object.assign(body, { [field]: previous[field] });
  let text: string;
  if (changed.length === 1 && changed[0] === 'groupId') {
    const group = queryClient
      .getQueryData<Group[]>(queryKeys.groups)
      ?.find((candidate) => candidate.id === updated.groupId);
    text = `Moved "${updated.title}" to ${group ? group.name : 'No Group'}`;
  } else if (changed.length === 1 && changed[0] === 'title') {
    text = `Renamed "${previous.title}" to "${updated.title}"`;
  } else {
    text = `Changed the ${listOf(changed.map((field) => EDITED_FIELDS[field]))} of "${updated.title}"`;
  }
  offerPutBack(queryClient, text, updated.id, body);
}

/** A repeating todo that was completed stays open with its next date: say so. */
function announceNext(before: Todo, after: Todo): void {
  if (before.completed || after.completed || !before.repeat || !after.dueDate) return;
  showNotice(`${after.title}: done. Next due ${dueLabel(after, new Date())}.`, {
    tone: 'info',
    durationMs: 6000,
  });
}

/** Saves an inline edit; the todo is replaced in place when the server answers. */
export function useUpdateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateTodoBody & { id: number }) =>
      updateTodo(queryClient, id, body),
    onMutate: ({ id }) => ({ previous: findTodo(queryClient, id) }),
    onSuccess: (updated, _body, context) => {
      replaceTodo(queryClient, updated.id, () => updated);
      const previous = context?.previous;
      if (previous) offerEditUndo(queryClient, previous, updated);
      refreshViews(queryClient);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
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
    mutationFn: (todo: Todo) =>
      updateTodo(queryClient, todo.id, { ...bodyOf(todo), completed: !todo.completed }, todo),
    onMutate: async (todo) => {
      await cancelTodoRefetches(queryClient);
      replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: !todo.completed }));
    },
    onSuccess: (updated, todo) => {
      replaceTodo(queryClient, updated.id, () => updated);
      announceNext(todo, updated);
      offerPutBack(
        queryClient,
        `${todo.completed ? 'Reopened' : 'Completed'} "${todo.title}"`,
        todo.id,
        previousOf(todo),
      );
      refreshViews(queryClient);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error, todo) => {
      replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: todo.completed }));
      reportMutationError(error, OPERATION);
    },
  });
}
