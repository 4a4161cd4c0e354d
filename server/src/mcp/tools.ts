import {
  etagOfVersion,
  MCP_TOOLS,
  type CreateTodoBody,
  type Group,
  type McpToolName,
  routes,
  type Todo,
} from '@tally/contract';
import { readQuickAddText } from '@tally/contract/quick-add-text';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';

/**
 * What each MCP tool does, as the /api calls it makes with the assistant's own token
 * (docs/decisions/134-mcp-through-the-api.md): every call passes the same authentication, rate
 * limit, validation, versions, services and live updates as the web app's.
 */

export interface ToolAnswer {
  /** The tool's answer, valid against its output schema; absent when refused. */
  structured?: object;
  /** Why it was refused, in a sentence an assistant can repeat. */
  refusal?: string;
}

interface ApiAnswer {
  status: number;
  body: unknown;
}

/** One /api call as the assistant's token. */
export type CallApi = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options?: { query?: Record<string, string>; body?: object; version?: number | undefined },
) => Promise<ApiAnswer>;

export function apiCaller(
  app: FastifyInstance,
  token: string,
  timeZone: string | undefined,
): CallApi {
  return async (method, url, { query, body, version } = {}) => {
    const response = await app.inject({
      method,
      url,
      ...(query ? { query } : {}),
      headers: {
        authorization: `Bearer ${token}`,
        ...(timeZone ? { 'x-time-zone': timeZone } : {}),
        ...(version === undefined ? {} : { 'if-match': etagOfVersion(version) }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return {
      status: response.statusCode,
      body: response.body === '' ? null : (JSON.parse(response.body) as unknown),
    };
  };
}

/** The refusal of an /api answer that is not a success, worded for the assistant. */
function refusalOf(answer: ApiAnswer): ToolAnswer {
  const { status, body } = answer;
  if (status === 412) {
    return {
      refusal: `This todo changed since that version, so nothing was changed. It is now: ${JSON.stringify(body)}`,
    };
  }
  // A 5xx says nothing internal on /api either (server/src/plugins/error-handler.ts).
  if (status >= 500) return { refusal: 'Tally could not do this just now: try again later' };
  const error = (body as { error?: unknown } | null)?.error;
  return { refusal: typeof error === 'string' ? error : `Refused (HTTP ${status})` };
}

const answered = (
  answer: ApiAnswer,
  shape: (body: unknown) => object = (body) => body as object,
) => (answer.status < 300 ? { structured: shape(answer.body) } : refusalOf(answer));

/** The first thing wrong with the arguments, naming the field: "id: Expected integer". */
export function invalidArguments(name: McpToolName, args: unknown): string | null {
  const schema = MCP_TOOLS[name].input;
  if (Value.Check(schema, args)) return null;
  const [first] = Value.Errors(schema, args);
  if (!first) return 'The arguments are not valid';
  const field = first.path.replace(/^\//, '').replaceAll('/', '.');
  return field ? `${field}: ${first.message}` : `The arguments: ${first.message}`;
}

/** What quick-add text is read against besides the groups: the moment and the user's zone. */
export interface QuickAddContext {
  now: () => number;
  timeZone: () => Promise<string>;
  /** The account's language, whose dates and repeats quick-add text may be written in. */
  language: () => Promise<string | null>;
}

/**
 * Quick-add text read as the web app's quick add reads a typed title (date, time, #Group, repeat,
 * @tags, priority, start date); the words read leave the title.
 */
function readQuickAdd(
  text: string,
  groups: readonly Group[],
  now: number,
  timeZone: string,
  language: string | null,
): Partial<CreateTodoBody> {
  const read = readQuickAddText(text, { groups, now: new Date(now), timeZone, language });
  return {
    // Nothing but chips: the text as typed, so the todo is never without a title.
    title: read.title,
    ...(read.tags ? { tags: read.tags } : {}),
    ...(read.priority ? { priority: read.priority } : {}),
    ...(read.group ? { groupId: read.group.id } : {}),
    ...(read.dueDate ? { dueDate: read.dueDate } : {}),
    ...(read.dueTime ? { dueTime: read.dueTime } : {}),
    ...(read.repeat ? { repeat: read.repeat } : {}),
    ...(read.startDate ? { startDate: read.startDate } : {}),
  };
}

const todoPath = (id: number) => routes.todos.get.path.replace(':id', String(id));
const DEFAULT_FOUND = 50;

type Args = Record<string, unknown>;

/** Runs a tool whose arguments have been checked against its input schema. */
export async function runTool(
  name: McpToolName,
  args: Args,
  api: CallApi,
  quick: QuickAddContext,
): Promise<ToolAnswer> {
  const { id, version, ...fields } = args as Args & { id: number; version?: number };
  switch (name) {
    case 'find_todos': {
      const { groupId, completed, limit, ...rest } = fields;
      const query = Object.fromEntries(
        Object.entries(rest)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, String(value)]),
      );
      const answer = await api('GET', routes.todos.list.path, { query });
      if (answer.status >= 300) return refusalOf(answer);
      const found = (answer.body as Todo[]).filter(
        (todo) =>
          (groupId === undefined || todo.groupId === groupId) &&
          (completed === undefined || todo.completed === completed),
      );
      const most = typeof limit === 'number' ? limit : DEFAULT_FOUND;
      return { structured: { todos: found.slice(0, most), total: found.length } };
    }
    case 'get_todo':
      return answered(await api('GET', todoPath(id)));
    case 'add_todo': {
      const { text, ...given } = fields as { text?: string } & Partial<CreateTodoBody>;
      if (text === undefined && given.title === undefined) {
        return { refusal: 'text or title: give the quick-add text or a title' };
      }
      let read: Partial<CreateTodoBody> = {};
      if (text !== undefined) {
        const groups = await api('GET', routes.groups.list.path);
        if (groups.status >= 300) return refusalOf(groups);
        read = readQuickAdd(
          text,
          groups.body as Group[],
          quick.now(),
          await quick.timeZone(),
          await quick.language(),
        );
      }
      return answered(await api('POST', routes.todos.create.path, { body: { ...read, ...given } }));
    }
    case 'update_todo':
      if (Object.keys(fields).length === 0) {
        return { refusal: 'Nothing to change: name at least one field besides id and version' };
      }
      return answered(await api('PATCH', todoPath(id), { body: fields, version }));
    case 'complete_todo':
    case 'reopen_todo':
      return answered(
        await api('PATCH', todoPath(id), {
          body: { completed: name === 'complete_todo' },
          version,
        }),
      );
    case 'reschedule_todo':
      return answered(await api('PATCH', todoPath(id), { body: fields, version }));
    case 'delete_todo': {
      // Read first, so the answer shows what went to the trash; the delete names the version
      // read, so a change made in between is refused rather than trashed unseen.
      const current = await api('GET', todoPath(id));
      if (current.status >= 300) return refusalOf(current);
      const todo = current.body as Todo;
      const removed = await api('DELETE', todoPath(id), { version: version ?? todo.version });
      return answered(removed, () => ({ trashed: todo }));
    }
    case 'list_groups':
      return answered(await api('GET', routes.groups.list.path), (groups) => ({ groups }));
    case 'list_tags':
      return answered(await api('GET', routes.tags.list.path), (tags) => ({ tags }));
    case 'insights_summary': {
      const { weeks } = fields;
      return answered(
        await api('GET', routes.statistics.insights.path, {
          query: weeks === undefined ? {} : { weeks: String(weeks) },
        }),
      );
    }
  }
}
