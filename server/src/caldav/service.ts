import { createHash } from 'node:crypto';
import type ICAL from 'ical.js';
import {
  etagOfVersion,
  GROUP_COLORS,
  GroupBodySchema,
  type GroupColor,
  LIMITS,
  type UpdateTodoBody,
  UpdateTodoBodySchema,
} from '@tally/contract';
import type { ValidateFunction } from 'ajv';
import type { Kysely } from 'kysely';
import { userPreferences } from '../account/preferences.js';
import { textsFor } from '../shared/languages/index.js';
import type { Database, Db } from '../db/schema.js';
import { usePersonalToken } from '../plugins/personal-tokens.js';
import { createBodyValidator } from '../plugins/validation.js';
import type { Clock } from '../shared/clock.js';
import { batches } from '../shared/batches.js';
import { AppError, badRequest } from '../shared/errors.js';
import { tagsOfTodos } from '../shared/tags.js';
import { validationMessage } from '../shared/validation-message.js';
import { recordEvents } from '../statistics/record-events.js';
import { createGroupService } from '../groups/service.js';
import { createTodoService } from '../todos/service.js';
import { moveToTrash } from '../todos/trash.js';
import {
  componentOf,
  type Extra,
  type JCalComponent,
  parseVtodo,
  ical,
  type RenderedTodo,
  sentText,
  textOf,
  vtodoCalendar,
} from './vtodo.js';
import { DavPrecondition, NS } from './xml.js';

/**
 * CalDAV's business rules (docs/decisions/085-caldav.md): who a request is, which collections
 * and resources a user has, and each write, made through the todo and group services so a
 * client's change follows every rule of the web app's (statistics, repeats, reminders, trash).
 */

/** The collection of todos without a group. */
const UNGROUPED = 'todos';

export interface DavUser {
  id: number;
  email: string;
  username: string;
  /** A read token may read only. */
  canWrite: boolean;
  tokenId: number;
}

export interface Collection {
  /** Its last path segment. */
  segment: string;
  /** null: the todos without a group. */
  groupId: number | null;
  name: string;
  color: string;
}

const derivedUid = (id: number) => `tally-${id}`;
const UID_CONFLICT = { ns: NS.caldav, name: 'no-uid-conflict' };
/** The id in `tally-{id}`; null beyond the id column (a 32-bit integer on PostgreSQL). */
const derivedId = (uid: string) => {
  const match = /^tally-(\d{1,10})$/.exec(uid);
  const id = match ? Number(match[1]) : 0;
  return id >= 1 && id <= 2_147_483_647 ? id : null;
};

/**
 * The version of renderVtodo()'s output, part of every ETag. Raise it with any change to what
 * renderVtodo() writes, so a client fetches the objects again instead of keeping ones the server
 * would now write differently.
 */
const RENDERING = 3;

/** The hash of the parts, one after the other, as an ETag. */
const etagOf = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
};

/** The part of a resource's ETag that the user's zone and RENDERING make, one per zone. */
const renderingTags = new Map<string | null, string>();
const renderingTag = (zone: string | null) => {
  let tag = renderingTags.get(zone);
  if (tag === undefined) {
    tag = etagOf(`${RENDERING}\n${zone}`).slice(1, 9);
    // A handful of zones are in use at a time; a bound keeps a stream of odd ones from growing it.
    if (renderingTags.size >= 1000) renderingTags.clear();
    renderingTags.set(zone, tag);
  }
  return tag;
};

/**
 * A todo's ETag over CalDAV (docs/decisions/113-versions-and-if-match.md): its id and version
 * (the API's ETag, which every write from any path raises), and what else the object is
 * written from, the user's zone and RENDERING; listing ETags writes no object.
 */
const resourceEtag = (id: number, version: number, zone: string | null) =>
  `"${id}-${version}-${renderingTag(zone)}"`;

/**
 * A todo as a resource: its name, its calendar object and a strong ETag, which changes whenever
 * the object's bytes may (resourceEtag). A class rather than an object with its own getter: a full sync makes
 * 20,000 of these, and each would otherwise carry a closure and its context.
 */
export class Resource {
  readonly id: number;
  readonly name: string;
  readonly uid: string;
  readonly groupId: number | null;
  readonly etag: string;
  /** The todo's version (the API's ETag names it). */
  readonly version: number;
  readonly updatedAt: number;
  /** The characters it is written from: its description and what is kept of the object. */
  readonly size: number;
  readonly #todo: Omit<RenderedTodo, 'extra'>;
  /** What is kept of the object (todos.ics_extra), as stored: read only to write the object. */
  readonly #extra: string | null;
  readonly #zone: string | null;
  #jcal: JCalComponent | null = null;
  #data: string | null = null;
  /** The object as the client sent it, while Tally serves it so (sentText); read once. */
  #sent: string | null | undefined;

  constructor(
    row: { id: number; group_id: number | null; dav_name: string | null; version: number },
    todo: Omit<RenderedTodo, 'extra'>,
    extra: string | null,
    zone: string | null,
  ) {
    this.id = row.id;
    this.name = row.dav_name ?? `${todo.uid}.ics`;
    this.uid = todo.uid;
    this.groupId = row.group_id;
    this.etag = resourceEtag(row.id, row.version, zone);
    this.version = row.version;
    this.updatedAt = todo.updatedAt;
    this.size = (todo.description?.length ?? 0) + (extra?.length ?? 0);
    this.#todo = todo;
    this.#extra = extra;
    this.#zone = zone;
  }

  /** The calendar object, written only when a client asks for it (GET, calendar-data, a filter). */
  get data(): string {
    this.#data ??= this.#sentText() ?? textOf(this.#calendar());
    return this.#data;
  }

  /** The calendar object as a calendar-query's filter reads it, not parsed from its text. */
  get component(): ICAL.Component {
    return componentOf(this.#calendar());
  }

  #parsed: RenderedTodo | null = null;
  #rendered(): RenderedTodo {
    this.#parsed ??= {
      ...this.#todo,
      extra: this.#extra === null ? null : (JSON.parse(this.#extra) as Extra),
    };
    return this.#parsed;
  }

  #sentText(): string | null {
    if (this.#sent === undefined) {
      this.#sent = this.#extra?.includes('"sent":') ? sentText(this.#rendered()) : null;
    }
    return this.#sent;
  }

  /** The object a filter reads: the one served, the client's own text while it is. */
  #calendar(): JCalComponent {
    const sent = this.#sentText();
    this.#jcal ??=
      sent === null
        ? vtodoCalendar(this.#rendered(), this.#zone)
        : (ical().parse(sent) as JCalComponent);
    return this.#jcal;
  }
}

/** The iCalendar property each field of a todo is read from, named when the field is refused. */
const PROPERTY_OF: Record<string, string> = {
  title: 'SUMMARY',
  description: 'DESCRIPTION',
  completed: 'STATUS',
  dueDate: 'DUE',
  dueTime: 'DUE',
  startDate: 'DTSTART',
  repeat: 'RRULE',
  reminders: 'VALARM',
  durationMinutes: 'DURATION',
  tags: 'CATEGORIES',
  priority: 'PRIORITY',
  parentId: 'RELATED-TO',
};

/** Compiled at the first CalDAV write, not at start (docs/decisions/097-modules-on-first-use.md). */
let validTodo: ValidateFunction | undefined;
let validGroupName: ValidateFunction | undefined;

/**
 * A todo read from a VTODO passes the API's own checks (the contract's schema: no NUL, the
 * lengths, the date and time formats), so CalDAV stores nothing the API would refuse; the
 * refusal names the property the field came from.
 */
function checkTodo(body: UpdateTodoBody): void {
  validTodo ??= createBodyValidator().compile(UpdateTodoBodySchema);
  if (validTodo(body)) return;
  const message = validationMessage(validTodo.errors ?? [], 'body');
  const field = /^\w+/.exec(message)?.[0] ?? '';
  throw badRequest(`${PROPERTY_OF[field] ?? 'body'}: ${message}`);
}

/** A calendar's name (its displayname) passes the group API's rule for a group's name. */
function checkCalendarName(name: string): void {
  validGroupName ??= createBodyValidator().compile(GroupBodySchema.properties.name);
  if (!validGroupName(name)) {
    throw badRequest(validationMessage(validGroupName.errors ?? [], 'displayname'));
  }
}

/**
 * A calendar's path segment is in every href of its todos: no control characters (NUL among
 * them) or bidirectional overrides and isolates, which would show an href other than it is.
 */
const SEGMENT_MAX = 255;
const UNSAFE_IN_SEGMENT = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** The swatch nearest to a client's colour (#RRGGBB or #RRGGBBAA). */
function nearestSwatch(color: string): GroupColor | null {
  const match = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color.trim());
  if (!match?.[1]) return null;
  const rgb = (hex: string) => [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [r, g, b] = rgb(match[1]) as [number, number, number];
  let best: GroupColor = GROUP_COLORS[0];
  let bestDistance = Infinity;
  for (const swatch of GROUP_COLORS) {
    const [sr, sg, sb] = rgb(swatch.slice(1)) as [number, number, number];
    const distance = (r - sr) ** 2 + (g - sg) ** 2 + (b - sb) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [swatch, distance];
  }
  return best;
}

const TODO_COLUMNS = [
  'todos.id',
  'todos.uid',
  'todos.dav_name',
  'todos.ics_extra',
  'todos.group_id',
  'todos.title',
  'todos.description',
  'todos.completed',
  'todos.due_date',
  'todos.due_time',
  'todos.start_date',
  'todos.repeat',
  'todos.reminder_minutes',
  'todos.duration_minutes',
  'todos.priority',
  'todos.parent_id',
  'todos.created_at',
  'todos.updated_at',
  'todos.version',
] as const;

/**
 * Resources read and answered at a time (a calendar's members, a multiget's hrefs). The page
 * being written is alive at each young-generation collection, and what survives two is promoted
 * to old space: pages of 100 rather than 500 lower a full sync's peak memory for a little more
 * CPU (docs/performance.md, CalDAV).
 */
export const RESOURCES_PER_PAGE = 100;
/**
 * About how many characters (descriptions and kept properties: Resource.size) a page of a
 * calendar's members holds: SQLite reads a page in one synchronous call, and 100 objects at
 * every limit (189 KB each) took it 300 ms, during which no other request is answered
 * (bench/caldav-abuse.mjs). Pages start at 10 todos and double while they stay under this.
 */
const PAGE_CHARACTERS = 1_000_000;
const FIRST_PAGE = 10;

/**
 * How long the change log answers an incremental sync: a client that last synced longer ago
 * gets 403 valid-sync-token and syncs afresh (RFC 6578, 3.2), as after the trash's 30 days.
 */
const CHANGES_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

const changedSinceRead = () =>
  new AppError(412, 'The resource changed since it was read (its ETag differs)');

/**
 * The todo service's 412 answers the todo as JSON; a CalDAV client gets the DAV sentence, and
 * reads the resource again.
 */
const asCaldavRefusal = (error: unknown): never => {
  if (error instanceof AppError && error.statusCode === 412) throw changedSinceRead();
  throw error;
};

export function createCaldavService(db: Kysely<Database>, clock: Clock) {
  const todos = createTodoService(db, clock);
  const groups = createGroupService(db, clock);

  /**
   * The todos of a user matching `where`, with their tags and parent's UID. `zone`: the user's
   * (zoneOf), read once by a caller that loads several pages.
   */
  async function load(
    userId: number,
    where: (query: TodoQuery) => TodoQuery,
    zone: string | null,
  ): Promise<Resource[]> {
    const rows = await where(baseQuery(userId)).execute();
    const tags = await tagsOfTodos(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => {
      const todo: Omit<RenderedTodo, 'extra'> = {
        uid: row.uid ?? derivedUid(row.id),
        title: row.title,
        description: row.description,
        completed: row.completed === 1,
        dueDate: row.due_date,
        dueTime: row.due_time,
        startDate: row.start_date,
        repeat: row.repeat === null ? null : (JSON.parse(row.repeat) as RenderedTodo['repeat']),
        reminders:
          row.reminder_minutes === null ? [] : (JSON.parse(row.reminder_minutes) as number[]),
        durationMinutes: row.duration_minutes,
        tags: (tags.get(row.id) ?? []).sort((a, b) => a.localeCompare(b)),
        priority: row.priority as RenderedTodo['priority'],
        parentUid: row.parent_id === null ? null : (row.parent_uid ?? derivedUid(row.parent_id)),
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      };
      return new Resource(row, todo, row.ics_extra, zone);
    });
  }

  function baseQuery(userId: number) {
    return db
      .selectFrom('todos')
      .leftJoin('todos as parent', 'parent.id', 'todos.parent_id')
      .select([...TODO_COLUMNS, 'parent.uid as parent_uid'])
      .where('todos.user_id', '=', userId);
  }
  type TodoQuery = ReturnType<typeof baseQuery>;

  /** The user's own zone (their account's setting), in which Tally writes their times. */
  const zoneOf = async (userId: number): Promise<string> =>
    (await userPreferences(db, userId)).timeZone;

  const inGroup = (groupId: number | null) => (query: TodoQuery) =>
    groupId === null
      ? query.where('todos.group_id', 'is', null)
      : query.where('todos.group_id', '=', groupId);

  /**
   * The todos of a collection that these resource names can be: a name a client gave
   * (`dav_name`), else `{uid}.ics`, else `tally-{id}.ics` for a todo made in the web app. Each
   * way is its own indexed lookup, joined by a union: one condition ORing them made the database
   * scan the user's every todo on each PUT and GET.
   */
  const named =
    (userId: number, groupId: number | null, names: readonly string[]) => (query: TodoQuery) => {
      const uids = names.flatMap((name) => (name.endsWith('.ics') ? [name.slice(0, -4)] : []));
      const ids = uids.flatMap((uid) => derivedId(uid) ?? []);
      const candidates = db
        .selectFrom('todos')
        .select('id')
        .where('user_id', '=', userId)
        .where('dav_name', 'in', names);
      const byUid = uids.length
        ? candidates.union(
            db
              .selectFrom('todos')
              .select('id')
              .where('user_id', '=', userId)
              .where('uid', 'in', uids)
              .where('dav_name', 'is', null),
          )
        : candidates;
      const all = ids.length
        ? byUid.union(
            db
              .selectFrom('todos')
              .select('id')
              .where('id', 'in', ids)
              .where('uid', 'is', null)
              .where('dav_name', 'is', null),
          )
        : byUid;
      return inGroup(groupId)(query).where('todos.id', 'in', all);
    };

  /**
   * The todo holding this UID (or `tally-{id}`): the one in `groupId`'s calendar, else the oldest
   * in another. A UID is unique within a calendar only (RFC 4791, 5.3.2.1): the same object put
   * in two calendars is two todos (docs/decisions/123-one-uid-in-two-calendars.md).
   */
  async function byUid(userId: number, uid: string, groupId: number | null) {
    const id = derivedId(uid);
    // Two indexed lookups rather than one condition ORing them, which scanned the user's todos.
    const holding = db
      .selectFrom('todos')
      .select(['id', 'uid', 'dav_name', 'group_id'])
      .where('user_id', '=', userId);
    const holders = await (
      id === null
        ? holding.where('uid', '=', uid)
        : holding
            .where('uid', '=', uid)
            .union(holding.where('uid', 'is', null).where('id', '=', id))
    )
      .orderBy('id')
      .execute();
    return holders.find((holder) => holder.group_id === groupId) ?? holders[0] ?? null;
  }

  /**
   * The oldest sync token still answered: the log's position as of CHANGES_KEPT_MS ago (the
   * newest mark at least that old), 0 until a mark is. Changes up to it may be pruned.
   */
  async function oldestToken(): Promise<number> {
    const row = await db
      .selectFrom('caldav_change_marks')
      .select((eb) => eb.fn.max('last_id').as('last'))
      .where('at', '<=', clock() - CHANGES_KEPT_MS)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /**
   * The sync token of every collection of the user and the oldest one still answered. The token
   * is the user's latest change id, or the oldest answered token when that is newer (a user
   * without a change for longer than the kept history): a token is a position in the whole log,
   * and every change of the user after it is still there.
   */
  async function syncTokens(userId: number): Promise<{ current: number; oldest: number }> {
    const [row, oldest] = await Promise.all([
      db
        .selectFrom('caldav_changes')
        .select((eb) => eb.fn.max('id').as('last'))
        .where('user_id', '=', userId)
        .executeTakeFirst(),
      oldestToken(),
    ]);
    return { current: Math.max(Number(row?.last ?? 0), oldest), oldest };
  }

  const syncToken = async (userId: number) => (await syncTokens(userId)).current;

  /**
   * Bounds the change log (docs/decisions/092-caldav-change-log-pruning.md): marks where it
   * stands now, then deletes the changes older than the kept history, except each collection's
   * latest one (its getctag), and the marks no longer needed. Returns how many changes went.
   */
  async function pruneChanges(): Promise<number> {
    const now = clock();
    const last = await db
      .selectFrom('caldav_changes')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    await db
      .insertInto('caldav_change_marks')
      .values({ at: now, last_id: Number(last?.last ?? 0) })
      .onConflict((oc) => oc.column('at').doNothing())
      .execute();
    const floor = await db
      .selectFrom('caldav_change_marks')
      .select(['at', 'last_id'])
      .where('at', '<=', now - CHANGES_KEPT_MS)
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!floor) return 0;
    const deleted = await db
      .deleteFrom('caldav_changes')
      .where('id', '<=', floor.last_id)
      .where('id', 'not in', (eb) =>
        eb
          .selectFrom('caldav_changes as latest')
          .select((f) => f.fn.max('latest.id').as('id'))
          .where((w) =>
            w.or([
              w('latest.group_id', 'is', null),
              w('latest.group_id', 'in', w.selectFrom('todo_groups').select('todo_groups.id')),
            ]),
          )
          .groupBy(['latest.user_id', 'latest.group_id']),
      )
      .executeTakeFirst();
    // The newest mark old enough is the floor from now on; older ones say nothing more.
    await db.deleteFrom('caldav_change_marks').where('at', '<', floor.at).execute();
    return Number(deleted.numDeletedRows);
  }

  async function collections(userId: number): Promise<Collection[]> {
    const [rows, preferences] = await Promise.all([
      db
        .selectFrom('todo_groups')
        .select(['id', 'name', 'color', 'dav_name'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute(),
      userPreferences(db, userId),
    ]);
    // Named in the account's language; its address, objects and sync token never depend on it,
    // so a change of language renames it in clients and makes them fetch nothing (decision 179).
    const ungroupedName = textsFor(preferences.language).ungroupedCalendar;
    return [
      { segment: UNGROUPED, groupId: null, name: ungroupedName, color: GROUP_COLORS[0] },
      ...rows.map((row) => ({
        segment: row.dav_name ?? `group-${row.id}`,
        groupId: row.id,
        name: row.name,
        color: row.color,
      })),
    ];
  }

  async function collection(userId: number, segment: string): Promise<Collection | null> {
    return (await collections(userId)).find((c) => c.segment === segment) ?? null;
  }

  /** A collection's version: its latest change and its name and colour. */
  async function ctag(userId: number, c: Collection): Promise<string> {
    const row = await db
      .selectFrom('caldav_changes')
      .select((eb) => eb.fn.max('id').as('last'))
      .where('user_id', '=', userId)
      .where((eb) =>
        c.groupId === null ? eb('group_id', 'is', null) : eb('group_id', '=', c.groupId),
      )
      .executeTakeFirst();
    return `${Number(row?.last ?? 0)}-${etagOf(`${c.name}\n${c.color}`).slice(1, 9)}`;
  }

  /**
   * The collection's resources a page at a time, by id: a caller writes each page out
   * before the next is read, so a calendar of 10,000 todos is never in memory at once. Pages
   * hold up to RESOURCES_PER_PAGE todos, fewer when they are large (PAGE_CHARACTERS).
   */
  async function* memberPages(userId: number, groupId: number | null): AsyncGenerator<Resource[]> {
    const zone = await zoneOf(userId);
    let after = 0;
    let size = FIRST_PAGE;
    for (;;) {
      const page = await load(
        userId,
        (query) =>
          inGroup(groupId)(query).where('todos.id', '>', after).orderBy('todos.id').limit(size),
        zone,
      );
      if (page.length) yield page;
      if (page.length < size) return;
      after = page[page.length - 1]?.id ?? after;
      const characters = page.reduce((sum, resource) => sum + resource.size, 0);
      const fitting = Math.floor((size * PAGE_CHARACTERS) / Math.max(1, characters));
      size = Math.max(1, Math.min(RESOURCES_PER_PAGE, 2 * size, fitting));
    }
  }

  /** The resource at this name in the collection, or null. */
  async function resource(userId: number, groupId: number | null, name: string) {
    const [found] = await load(userId, named(userId, groupId, [name]), await zoneOf(userId));
    return found ?? null;
  }

  /**
   * Calendar-multiget's resources, a page of the request's hrefs at a time: each page with the
   * resources its names find (only the todos those names can be), read when the page before is
   * answered.
   */
  async function* namedPages<P>(
    userId: number,
    groupId: number | null,
    pages: Iterable<P>,
    namesOf: (page: P) => readonly string[],
  ): AsyncGenerator<{ page: P; found: Map<string, Resource> }> {
    const zone = await zoneOf(userId);
    for (const page of pages) {
      const names = namesOf(page);
      const found = names.length ? await load(userId, named(userId, groupId, names), zone) : [];
      yield { page, found: new Map(found.map((resource) => [resource.name, resource])) };
    }
  }

  /**
   * What changed in the collection after `token`: the resources now in it, and the names of
   * those that left it (deleted, or moved to another group). Null for a token never given out.
   */
  async function changesSince(userId: number, groupId: number | null, token: number) {
    const rows = await db
      .selectFrom('caldav_changes')
      .select(['todo_id', 'name'])
      .where('user_id', '=', userId)
      .where((eb) => (groupId === null ? eb('group_id', 'is', null) : eb('group_id', '=', groupId)))
      .where('id', '>', token)
      .orderBy('id')
      .execute();
    const latest = new Map<number, string>();
    for (const row of rows) latest.set(row.todo_id, row.name);
    const ids = [...latest.keys()];
    const changed: Resource[] = [];
    const zone = ids.length ? await zoneOf(userId) : null;
    for (const batch of batches(ids)) {
      changed.push(
        ...(await load(userId, (q) => inGroup(groupId)(q).where('todos.id', 'in', batch), zone)),
      );
    }
    const present = new Set(changed.map((r) => r.id));
    const removed = ids.filter((id) => !present.has(id)).map((id) => latest.get(id) ?? '');
    return { changed, removed };
  }

  /**
   * PUT of a calendar object: creates the todo, or replaces the one at `name`, in one
   * transaction through the todo service (its steps stand or fall together), and answers the
   * resource's new ETag when the object stored is the one sent, byte for byte; else null, and
   * the client reads the object Tally made of it (RFC 4791, 5.3.4). `ifMatch` and `ifNoneMatch` are the request's preconditions: a stale
   * ETag is a 412, never an overwrite, also when a write from elsewhere lands while this one runs.
   */
  async function put(
    user: DavUser,
    c: Collection,
    name: string,
    text: string,
    preconditions: { ifMatch: string | null; ifNoneMatch: string | null },
  ): Promise<{ created: boolean; id: number; etag: string | null }> {
    const zone = await zoneOf(user.id);
    const existing = await resource(user.id, c.groupId, name);
    if (preconditions.ifNoneMatch !== null && existing) {
      throw new AppError(412, 'A resource with this name exists already');
    }
    if (preconditions.ifMatch !== null) {
      const tags = preconditions.ifMatch.split(',').map((tag) => tag.trim());
      if (!existing || !(tags.includes('*') || tags.includes(existing.etag))) {
        throw changedSinceRead();
      }
    }
    const { uid, fields, extra, customRepeat } = parseVtodo(text, zone);
    if (existing && existing.uid !== uid) {
      throw new DavPrecondition(
        409,
        'UID: a resource keeps its UID; make a new resource for another',
        UID_CONFLICT,
        existing.name,
      );
    }
    // Only a holder in this calendar refuses the object; one in another calendar stays where it
    // is, and the object becomes a todo of its own here.
    const holder = existing ? null : await byUid(user.id, uid, c.groupId);
    if (holder && holder.group_id === c.groupId) {
      throw new DavPrecondition(
        409,
        'UID: another resource of this calendar has this UID',
        UID_CONFLICT,
        holder.dav_name ?? `${holder.uid ?? derivedUid(holder.id)}.ics`,
      );
    }
    const parent =
      fields.parentUid === null ? null : await byUid(user.id, fields.parentUid, c.groupId);
    const body: UpdateTodoBody = {
      title: fields.title,
      description: fields.description,
      groupId: c.groupId,
      completed: fields.completed,
      dueDate: fields.dueDate,
      dueTime: fields.dueTime,
      repeat: fields.repeat,
      reminders: fields.reminders,
      durationMinutes: fields.durationMinutes,
      tags: fields.tags,
      priority: fields.priority,
      parentId: parent?.id ?? null,
      startDate: fields.startDate,
    };
    checkTodo(body);
    const todoZone = extra.zone ?? zone;
    const targetId = existing?.id ?? null;
    // A completed VTODO holding its RRULE is the whole series completed, kept as sent; an app
    // that records one occurrence moves the todo on itself and sends it open (decision 163).
    // The version the client's If-Match named, checked again by the update under its lock.
    const basedOn =
      existing && preconditions.ifMatch !== null ? etagOfVersion(existing.version) : undefined;
    const written = await db
      .transaction()
      .execute(async (trx) => {
        const todos = createTodoService(trx, clock);
        let id: number;
        if (targetId === null) {
          const { completed, ...create } = body;
          id = (await todos.create(user.id, create, todoZone)).id;
          // A client may make a todo done at once: the same update the web app's checkbox makes.
          if (completed)
            await todos.update(user.id, id, { ...body }, todoZone, undefined, 'series');
        } else {
          const todo = await todos.update(user.id, targetId, body, todoZone, basedOn, 'series');
          if (!todo) throw new AppError(404, 'Todo not found');
          id = todo.id;
        }
        // The rest of the same write: its version was raised by the step above.
        await trx
          .updateTable('todos')
          .set({
            uid: derivedId(uid) === id ? null : uid,
            dav_name: name === `${uid}.ics` ? null : name,
            ics_extra: JSON.stringify(extra),
            custom_repeat: customRepeat,
            // The parent it names: while no todo of the user holds it, the one put later with
            // that UID adopts this subtask (adoptChildren).
            pending_parent_uid: fields.parentUid,
          })
          .where('id', '=', id)
          .where('user_id', '=', user.id)
          .execute();
        if (targetId === null) await adoptChildren(trx, todos, user.id, uid, id, todoZone);
        const { version } = await trx
          .selectFrom('todos')
          .select('version')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return { created: targetId === null, id, etag: resourceEtag(id, version, zone) };
      })
      .catch(asCaldavRefusal);
    // Read back as a GET would: Tally may have added to it (a DTSTAMP) or changed a field (a
    // parent not there yet).
    const [stored] = await load(user.id, (query) => query.where('todos.id', '=', written.id), zone);
    const same = stored !== undefined && stored.etag === written.etag && stored.data === text;
    return { ...written, etag: same ? written.etag : null };
  }

  /**
   * Subtasks a client sent before their parent (a sync uploads in any order) name it in
   * RELATED-TO while it did not exist: they become its subtasks once it does, in the PUT's
   * transaction.
   */
  async function adoptChildren(
    trx: Db,
    todos: ReturnType<typeof createTodoService>,
    userId: number,
    uid: string,
    parentId: number,
    zone: string,
  ) {
    const orphans = await trx
      .selectFrom('todos')
      .select('id')
      .where('user_id', '=', userId)
      .where('pending_parent_uid', '=', uid)
      .where('parent_id', 'is', null)
      .where('id', '!=', parentId)
      .execute();
    for (const orphan of orphans) {
      try {
        await todos.update(userId, orphan.id, { patch: { parentId } }, zone);
      } catch (error) {
        // A subtask that cannot be one here (a loop, too deep) stays where it is, its RELATED-TO
        // kept: the parent itself was made, and the client is told so.
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      }
    }
  }

  /** DELETE of a resource: the todo and its subtasks go to the trash. */
  async function remove(userId: number, c: Collection, name: string, ifMatch: string | null) {
    const existing = await resource(userId, c.groupId, name);
    if (!existing) return null;
    if (
      ifMatch !== null &&
      !ifMatch.split(',').some((t) => [existing.etag, '*'].includes(t.trim()))
    ) {
      throw changedSinceRead();
    }
    const basedOn = ifMatch === null ? undefined : etagOfVersion(existing.version);
    await todos.remove(userId, existing.id, basedOn).catch(asCaldavRefusal);
    return existing.id;
  }

  /** MKCALENDAR: a new group, named by the client's displayname (else the path segment). */
  async function makeCalendar(
    userId: number,
    segment: string,
    props: { name: string | null; color: string | null },
  ) {
    if ((await collection(userId, segment)) !== null || segment === UNGROUPED) {
      throw new AppError(405, 'A calendar with this name exists already');
    }
    if (segment.length > SEGMENT_MAX) {
      throw badRequest(`The calendar's path segment must be at most ${SEGMENT_MAX} characters`);
    }
    if (UNSAFE_IN_SEGMENT.test(segment)) {
      throw badRequest(
        "The calendar's path segment must not contain control or bidirectional-override characters",
      );
    }
    const given = props.name?.trim();
    if (given) checkCalendarName(given);
    // Without a displayname the segment names the group, cut to a group name's length.
    const name =
      given ||
      segment.trim().slice(0, LIMITS.groupNameMax) ||
      segment.slice(0, LIMITS.groupNameMax);
    const color = (props.color === null ? null : nearestSwatch(props.color)) ?? GROUP_COLORS[0];
    const group = await groups.create(userId, { name, color });
    if (segment !== `group-${group.id}`) {
      await db
        .updateTable('todo_groups')
        .set({ dav_name: segment })
        .where('id', '=', group.id)
        .execute();
    }
    return group;
  }

  /** PROPPATCH: renames or recolours the group. */
  async function patchCalendar(
    userId: number,
    c: Collection,
    props: { name: string | null; color: string | null },
  ) {
    if (c.groupId === null) throw new AppError(403, 'The Todos calendar cannot be renamed');
    const color = props.color === null ? c.color : nearestSwatch(props.color);
    if (color === null) throw badRequest('calendar-color must be a colour such as #3B82F6');
    const name = props.name === null ? c.name : props.name.trim();
    checkCalendarName(name);
    return groups.update(userId, c.groupId, { name, color: color as GroupColor });
  }

  /** DELETE of a calendar: the group goes, and its todos go to the trash (recoverable). */
  async function removeCalendar(userId: number, c: Collection): Promise<number> {
    const groupId = c.groupId;
    if (groupId === null) throw new AppError(403, 'The Todos calendar cannot be deleted');
    const now = clock();
    return db.transaction().execute(async (trx: Db) => {
      const ids = await trx
        .selectFrom('todos')
        .select('id')
        .where('user_id', '=', userId)
        .where('group_id', '=', groupId)
        .execute();
      const moved = await moveToTrash(
        trx,
        userId,
        ids.map((row) => row.id),
        now,
      );
      await trx
        .deleteFrom('todo_groups')
        .where('id', '=', groupId)
        .where('user_id', '=', userId)
        .execute();
      await recordEvents(
        trx,
        userId,
        [...moved.map(() => 'todosDeleted' as const), 'groupsDeleted' as const],
        now,
      );
      return moved.length;
    });
  }

  /** Basic authentication: the account's e-mail (or username) and one of its API tokens. */
  async function authenticate(username: string, password: string): Promise<DavUser | null> {
    const login = username.trim().toLowerCase();
    const used = await usePersonalToken(
      db,
      password,
      clock(),
      // A token limited to a saved filter is for GET /api/todos alone, never a calendar app.
      (row) =>
        row.filter_id === null && (row.email_lower === login || row.username_lower === login),
    );
    if (!used.ok) return null;
    const { row } = used;
    return {
      id: row.user_id,
      email: row.email,
      username: row.username,
      canWrite: row.scope === 'read-write',
      tokenId: row.id,
    };
  }

  return {
    authenticate,
    collections,
    collection,
    ctag,
    syncToken,
    syncTokens,
    pruneChanges,
    memberPages,
    resource,
    namedPages,
    changesSince,
    put,
    remove,
    makeCalendar,
    patchCalendar,
    removeCalendar,
  };
}
