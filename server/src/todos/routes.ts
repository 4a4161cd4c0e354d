import {
  etagOfVersion,
  NEXT_CURSOR_HEADER,
  TODO_PAGE_DEFAULT,
  todosApi,
  type BulkAction,
  type Todo,
  type WebhookEventType,
} from '@tally/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsync } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { badRequest, notFound } from '../shared/errors.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { createBulkService } from './bulk.js';
import type { TokenUser } from '../plugins/personal-tokens.js';
import { readFilter } from './read-filter.js';
import type { TodoFilters } from './rows.js';
import { createTodoService } from './service.js';

/** A change that asks to complete the todo: its webhook event is todo.completed if it was open. */
const completes = (body: object) => 'completed' in body && body.completed === true;

/** The webhook event each bulk action is, for every todo it changed. */
const BULK_EVENTS: Record<BulkAction, WebhookEventType> = {
  complete: 'todo.completed',
  reopen: 'todo.updated',
  move: 'todo.updated',
  delete: 'todo.deleted',
  restore: 'todo.restored',
  tag: 'todo.updated',
  untag: 'todo.updated',
  priority: 'todo.updated',
  parent: 'todo.updated',
  due: 'todo.updated',
};

/** A single todo's answer carries its version's ETag, the If-Match of the next write. */
const withEtag = (reply: FastifyReply, todo: Todo) => {
  reply.header('etag', etagOfVersion(todo.version));
  return todo;
};

export const todoRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  /**
   * The filter query of a list call: the one asked for, or for an API token limited to a saved
   * filter, that filter's (and nothing else).
   */
  const filterOfCall = async (asked: string | undefined, user: { id: number } | TokenUser) => {
    const limited = 'filterId' in user ? user.filterId : null;
    if (limited === null) return asked;
    if (asked !== undefined) throw badRequest('filter: this API token shows its saved filter only');
    const saved = await app.db
      .selectFrom('saved_filters')
      .select('query')
      .where('id', '=', limited)
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    return saved.query;
  };

  await compressLargeAnswers(app);
  const todos = createTodoService(app.db, clock);
  const bulk = createBulkService(app.db, clock);

  addEndpoint(
    app,
    todosApi.list,
    async (request, reply) => {
      const { limit, cursor, view, q, tag, priority, sort } = request.query;
      const paged = limit !== undefined || cursor !== undefined;
      const filter = await filterOfCall(request.query.filter, request.user);
      if (filter !== undefined) {
        if (q !== undefined) throw badRequest('filter cannot be combined with q (use search:)');
        const { lists } = await readFilter(app.db, request.user.id, filter, clock());
        const [list] = lists;
        if (list && lists.length === 1) {
          return answerList({ tag, priority, filter: list });
        }
        if (paged) throw badRequest('filter with several lists (,) cannot be paged');
        // The lists one after another, a todo shown by several only in the first.
        const shown = new Map<number, Todo>();
        for (const each of lists) {
          for (const todo of await answerList({ tag, priority, filter: each })) {
            if (!shown.has(todo.id)) shown.set(todo.id, todo);
          }
        }
        return [...shown.values()];
      }
      return answerList({ tag, priority });

      async function answerList(filters: TodoFilters): Promise<Todo[]> {
        // Pages follow one key (created, or the due date in a view); search ranks by relevance.
        if (sort !== undefined && (q !== undefined || (paged && (sort !== 'created' || view)))) {
          throw badRequest('sort cannot be combined with q, or with limit and cursor');
        }
        if (q !== undefined) {
          if (view !== undefined) throw badRequest('q cannot be combined with view');
          const found = await todos.search(request.user.id, q, limit, cursor, filters);
          if (found.next) reply.header(NEXT_CURSOR_HEADER, found.next);
          return found.todos;
        }
        if (view !== undefined) {
          const page = await todos.view(
            request.user.id,
            { view, limit, cursor },
            timeZoneOf(request),
            filters,
            sort,
          );
          if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
          return page.todos;
        }
        if (!paged) return todos.list(request.user.id, filters, sort);
        const page = await todos.page(request.user.id, limit ?? TODO_PAGE_DEFAULT, cursor, filters);
        if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
        return page.todos;
      }
    },
    // Every todo of every branch is made by toTodo (todos/rows.ts), field by field.
    { answerBuiltExactly: true },
  );

  addEndpoint(app, todosApi.counts, async (request) => todos.counts(request.user.id));

  addEndpoint(app, todosApi.get, async (request, reply) => {
    const todo = await todos.get(request.user.id, request.params.id);
    if (!todo) throw notFound('Todo');
    return withEtag(reply, todo);
  });

  // Each change is published once committed: the user's other clients fetch again
  // (docs/decisions/061-live-updates.md).
  addEndpoint(app, todosApi.create, async (request, reply) => {
    const todo = await todos.create(request.user.id, request.body, timeZoneOf(request));
    app.live.publish(request.user.id, { type: 'todo.created', id: todo.id }, request);
    await app.notifications.todoEvent(request.user.id, 'todo.created', todo.id);
    return reply.code(201).send(withEtag(reply, todo));
  });

  addEndpoint(app, todosApi.update, async (request, reply) => {
    const before = completes(request.body)
      ? await app.notifications.todoData(request.user.id, request.params.id)
      : null;
    const todo = await todos.update(
      request.user.id,
      request.params.id,
      request.body,
      timeZoneOf(request),
      request.headers['if-match'],
    );
    if (!todo) throw notFound('Todo');
    app.live.publish(request.user.id, { type: 'todo.updated', id: todo.id }, request);
    await app.notifications.todoEvent(
      request.user.id,
      before?.completed === false ? 'todo.completed' : 'todo.updated',
      todo.id,
    );
    return withEtag(reply, todo);
  });

  addEndpoint(app, todosApi.patch, async (request, reply) => {
    const before = completes(request.body)
      ? await app.notifications.todoData(request.user.id, request.params.id)
      : null;
    const todo = await todos.update(
      request.user.id,
      request.params.id,
      { patch: request.body },
      timeZoneOf(request),
      request.headers['if-match'],
    );
    if (!todo) throw notFound('Todo');
    app.live.publish(request.user.id, { type: 'todo.updated', id: todo.id }, request);
    await app.notifications.todoEvent(
      request.user.id,
      before?.completed === false ? 'todo.completed' : 'todo.updated',
      todo.id,
    );
    return withEtag(reply, todo);
  });

  addEndpoint(app, todosApi.move, async (request, reply) => {
    const todo = await todos.move(
      request.user.id,
      request.params.id,
      request.body,
      request.headers['if-match'],
    );
    if (!todo) throw notFound('Todo');
    app.live.publish(request.user.id, { type: 'todo.updated', id: todo.id }, request);
    await app.notifications.todoEvent(request.user.id, 'todo.updated', todo.id);
    return withEtag(reply, todo);
  });

  addEndpoint(app, todosApi.sorts, async (request) => todos.sorts(request.user.id));

  addEndpoint(app, todosApi.setSort, async (request) => {
    const sorts = await todos.setSort(request.user.id, request.body);
    app.live.publish(request.user.id, { type: 'sorts.updated' }, request);
    return sorts;
  });

  addEndpoint(app, todosApi.skip, async (request, reply) => {
    const todo = await todos.skip(
      request.user.id,
      request.params.id,
      timeZoneOf(request),
      request.headers['if-match'],
    );
    if (!todo) throw notFound('Todo');
    app.live.publish(request.user.id, { type: 'todo.updated', id: todo.id }, request);
    await app.notifications.todoEvent(request.user.id, 'todo.updated', todo.id);
    return withEtag(reply, todo);
  });

  addEndpoint(app, todosApi.remove, async (request, reply) => {
    // As it was, for the webhook event: it is in the trash after.
    const before = await app.notifications.todoData(request.user.id, request.params.id);
    const removed = await todos.remove(
      request.user.id,
      request.params.id,
      request.headers['if-match'],
    );
    if (removed === 0) throw notFound('Todo');
    await app.notifications.todoEvent(request.user.id, 'todo.deleted', before);
    app.live.publish(
      request.user.id,
      // Its subtasks went with it: the other clients fetch the whole list again.
      removed === 1 ? { type: 'todo.deleted', id: request.params.id } : { type: 'todos.changed' },
    );
    return reply.code(204).send();
  });

  addEndpoint(app, todosApi.bulk, async (request) => {
    const changed = await bulk(request.user.id, request.body, timeZoneOf(request));
    if (!changed) throw notFound('Todo');
    app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    await app.notifications.todoEvents(
      request.user.id,
      BULK_EVENTS[request.body.action],
      changed.map((todo) => todo.id),
    );
    return changed;
  });
};
