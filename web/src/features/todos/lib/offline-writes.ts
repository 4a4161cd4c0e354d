import type { QueryClient } from '@tanstack/react-query';
import type {
  CreateTodoBody,
  MoveTodoBody,
  PatchTodoBody,
  SetTodoSortBody,
  Todo,
  UpdateTodoBody,
} from '@tally/contract';
import { etagOfVersion } from '@tally/contract/constants';
import { routes } from '@tally/contract/routes';
import { cleanDescription, cleanTitle } from '@tally/contract/todo-text';
import type { EditedField } from './edit-undo';
import { findTodo } from './todo-cache';

/**
 * The todo calls made while offline (docs/product.md, Offline): queued with lib/outbox.ts, and
 * answered at once with what the server would most likely answer, so the screen shows the
 * change. A new todo gets a negative stand-in id until the server gives its own. An edit queues
 * only the fields it changes (PATCH), so the server keeps what another device changed meanwhile.
 * The queue's code is loaded on first use (precached by the service worker, so offline too).
 */
const outbox = () => import('#web/lib/outbox');

const pathOf = (path: string, id: number) => path.replace(':id', String(id));

/**
 * What makes a queued change of a todo replay safely: If-Match with the version it started from
 * (changed meanwhile, it is a conflict to show, lib/outbox.ts, never an overwrite) and the words
 * that conflict names it by. Nothing when the screen does not hold the todo.
 */
const startedFrom = (todo: Todo | undefined, label: string, version = todo?.version) =>
  todo === undefined || version === undefined
    ? {}
    : { headers: { 'if-match': etagOfVersion(version) }, label: `${label} “${todo.title}”` };

export async function queueCreate(body: CreateTodoBody, operation: string): Promise<Todo> {
  const { newTempId, queueWrite } = await outbox();
  const id = newTempId();
  const { method, path } = routes.todos.create;
  await queueWrite({ method, path, body, operation, tempId: id });
  return {
    id,
    title: cleanTitle(body.title),
    description: cleanDescription(body.description),
    groupId: body.groupId ?? null,
    completed: false,
    created: new Date().toISOString(),
    dueDate: body.dueDate ?? null,
    dueTime: body.dueTime ?? null,
    repeat: body.repeat ?? null,
    remindMinutesBefore: body.remindMinutesBefore ?? null,
    tags: body.tags ?? [],
    priority: body.priority ?? 0,
    parentId: body.parentId ?? null,
    startDate: body.startDate ?? null,
    durationMinutes: body.durationMinutes ?? null,
    // Newest first among its siblings, as the server places a new todo.
    position: -Date.now(),
    version: 1,
  };
}

const FIELDS = [
  'title',
  'description',
  'groupId',
  'completed',
  'dueDate',
  'dueTime',
  'repeat',
  'remindMinutesBefore',
  'tags',
  'priority',
  'parentId',
  'startDate',
] as const;

/**
 * `known`: the todo as it was before this change, where the screen has already shown the change
 * (the completion checkbox); otherwise the cached todo is the one before.
 */
export async function queueUpdate(
  queryClient: QueryClient,
  id: number,
  body: UpdateTodoBody,
  operation: string,
  known?: Todo,
  version?: number,
): Promise<Todo> {
  const before = known ?? findTodo(queryClient, id);
  const next: PatchTodoBody = {};
  for (const field of FIELDS) {
    if (!(field in body)) continue;
    const value = field === 'description' ? cleanDescription(body.description) : body[field];
    const unchanged = before && JSON.stringify(before[field]) === JSON.stringify(value ?? null);
    if (!unchanged) Object.assign(next, { [field]: value ?? null });
  }
  // PUT clears an omitted description or group; the same edit as a PATCH says so.
  if (!('description' in body) && before?.description) next.description = null;
  if (!('groupId' in body) && before?.groupId !== null && before) next.groupId = null;
  const { method, path } = routes.todos.patch;
  const changed = Object.keys(next) as (keyof PatchTodoBody)[];
  if (changed.length > 0) {
    const { fieldWords } = await import('./edit-undo');
    const label =
      changed.length === 1 && changed[0] === 'completed'
        ? next.completed
          ? 'completing'
          : 'reopening'
        : `the ${changed.map((field) => (field === 'completed' ? 'completion' : fieldWords(field as EditedField))).join(', ')} of`;
    await (
      await outbox()
    ).queueWrite({
      method,
      path: pathOf(path, id),
      body: next,
      operation,
      ...startedFrom(before, label, version ?? before?.version),
    });
  }
  const fallback: Todo = {
    id,
    title: body.title,
    description: null,
    groupId: null,
    completed: body.completed,
    created: new Date().toISOString(),
    dueDate: null,
    dueTime: null,
    repeat: null,
    remindMinutesBefore: null,
    tags: [],
    priority: 0,
    parentId: null,
    startDate: null,
    durationMinutes: null,
    position: 0,
    version: 1,
  };
  const after = { ...(before ?? fallback), ...next };
  return { ...after, title: cleanTitle(after.title) };
}

/**
 * Some fields of a todo (the detail view's saves), queued as they are; the screen shows the todo
 * with them (`known`: the todo as the view holds it, where the lists no longer do).
 */
export async function queuePatch(
  queryClient: QueryClient,
  id: number,
  body: PatchTodoBody,
  operation: string,
  known: Todo,
  version?: number,
): Promise<Todo> {
  const before = findTodo(queryClient, id) ?? known;
  const { method, path } = routes.todos.patch;
  const { fieldWords } = await import('./edit-undo');
  const words = (Object.keys(body) as EditedField[]).map(fieldWords);
  await (
    await outbox()
  ).queueWrite({
    method,
    path: pathOf(path, id),
    body,
    operation,
    // Replayed with the version it started from: changed meanwhile, it is a conflict to show
    // (lib/outbox.ts), named by what the person changed.
    ...(version === undefined
      ? {}
      : {
          headers: { 'if-match': etagOfVersion(version) },
          label: `the ${words.join(', ')} of “${before.title}”`,
        }),
  });
  const after: Todo = { ...before, ...body };
  return {
    ...after,
    title: cleanTitle(after.title),
    description: cleanDescription(after.description),
  };
}

export async function queueDelete(
  queryClient: QueryClient,
  id: number,
  operation: string,
): Promise<void> {
  const { method, path } = routes.todos.remove;
  await (
    await outbox()
  ).queueWrite({
    method,
    path: pathOf(path, id),
    operation,
    ...startedFrom(findTodo(queryClient, id), 'deleting'),
  });
}

/**
 * A move in the manual order, sent when online; the screen has already moved the row. `before`:
 * the todo as it was before the move (the row shows the new place already).
 */
export async function queueMove(
  id: number,
  body: MoveTodoBody,
  operation: string,
  before: Todo | undefined,
): Promise<void> {
  const { method, path } = routes.todos.move;
  await (
    await outbox()
  ).queueWrite({
    method,
    path: pathOf(path, id),
    body,
    operation,
    ...startedFrom(before, 'moving'),
  });
}

/**
 * A skip of a repeating todo's occurrence: the server knows its next date, so the row keeps its
 * date until the queue is sent and the lists are fetched again.
 */
export async function queueSkip(todo: Todo, operation: string): Promise<void> {
  const { method, path } = routes.todos.skip;
  await (
    await outbox()
  ).queueWrite({
    method,
    path: pathOf(path, todo.id),
    operation,
    ...startedFrom(todo, 'skipping'),
  });
}

/** A view's sort, kept on the server once online; the screen follows it already. */
export async function queueSort(body: SetTodoSortBody, operation: string): Promise<void> {
  const { method, path } = routes.todos.setSort;
  await (await outbox()).queueWrite({ method, path, body, operation });
}

/** A new parent, sent as a PATCH of that field alone (a move onto another parent's subtasks). */
export async function queueParent(
  id: number,
  parentId: number | null,
  operation: string,
  before: Todo | undefined,
): Promise<void> {
  const { method, path } = routes.todos.patch;
  const body: PatchTodoBody = { parentId };
  await (
    await outbox()
  ).queueWrite({
    method,
    path: pathOf(path, id),
    body,
    operation,
    ...startedFrom(before, 'the parent of'),
  });
}
