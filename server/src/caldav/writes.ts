import type { Element } from '@xmldom/xmldom';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest, notFound } from '../shared/errors.js';
import { davUserOf } from './auth.js';
import { davError, multistatus } from './multistatus.js';
import { bodyXml, enc, hrefs } from './properties.js';
import { collectionOf, type DavParams } from './propfind.js';
import type { createCaldavService } from './service.js';
import {
  childElements,
  dav,
  DavPrecondition,
  el,
  firstChild,
  isElement,
  nameOf,
  NS,
  textOf,
  type XmlName,
} from './xml.js';

type Request = FastifyRequest<{ Params: DavParams }>;

/** The displayname and calendar-color a MKCALENDAR or PROPPATCH sets; the others it names. */
function calendarSettings(root: Element | null) {
  const settings = {
    name: null as string | null,
    color: null as string | null,
    /** A calendar for events or journals only: Tally's calendars hold VTODOs. */
    withoutTodos: false,
  };
  const others: XmlName[] = [];
  const known: XmlName[] = [];
  for (const action of root ? childElements(root) : []) {
    const prop = firstChild(action, NS.dav, 'prop');
    for (const property of prop ? childElements(prop) : []) {
      const name = nameOf(property);
      const removing = isElement(action, NS.dav, 'remove');
      if (!removing && isElement(property, NS.dav, 'displayname')) {
        settings.name = textOf(property);
        known.push(name);
      } else if (!removing && isElement(property, NS.apple, 'calendar-color')) {
        settings.color = textOf(property);
        known.push(name);
      } else if (isElement(property, NS.caldav, 'supported-calendar-component-set')) {
        const comps = childElements(property).map((comp) => comp.getAttribute('name'));
        if (comps.some((comp) => comp?.toUpperCase() === 'VTODO')) known.push(name);
        else {
          others.push(name);
          settings.withoutTodos = true;
        }
      } else {
        others.push(name);
      }
    }
  }
  return { settings, known, others };
}

/**
 * The writes: PUT and DELETE of a todo, MKCALENDAR (and MKCOL), PROPPATCH and DELETE of a
 * calendar. Each tells the user's open web apps what changed (app.live).
 */
export function writeHandlers(
  app: FastifyInstance,
  caldav: ReturnType<typeof createCaldavService>,
) {
  async function makeCalendar(request: Request, reply: FastifyReply) {
    const user = davUserOf(request);
    const segment = request.params.calendar ?? '';
    if (await caldav.collection(user.id, segment)) {
      return davError(reply, 405, dav('resource-must-be-null'));
    }
    // Presentation properties apps set on a new calendar (calendar-order, a description, a
    // time zone) are not kept: the group is made with its name and colour.
    const { settings } = calendarSettings(bodyXml(request));
    if (settings.withoutTodos) {
      return davError(reply, 403, el(NS.caldav, 'supported-calendar-component'));
    }
    const group = await caldav.makeCalendar(user.id, segment, settings);
    app.live.publish(user.id, { type: 'group.created', id: group.id });
    return reply
      .code(201)
      .header('location', hrefs(user).home + enc(segment) + '/')
      .send();
  }

  async function patchCalendar(request: Request, reply: FastifyReply) {
    const user = davUserOf(request);
    const collection = await collectionOf(caldav, request);
    const { settings, known, others } = calendarSettings(bodyXml(request));
    const propstat = (names: XmlName[], status: string) =>
      dav(
        'propstat',
        dav('prop', ...names.map((n) => el(n.ns, n.name))),
        dav('status', `HTTP/1.1 ${status}`),
      );
    // All or nothing (RFC 4918, 9.2): a property Tally cannot keep fails the others too.
    const answer = others.length
      ? [
          propstat(others, '403 Forbidden'),
          ...(known.length ? [propstat(known, '424 Failed Dependency')] : []),
        ]
      : [propstat(known, '200 OK')];
    if (!others.length && (settings.name !== null || settings.color !== null)) {
      const group = await caldav.patchCalendar(user.id, collection, settings);
      if (group) app.live.publish(user.id, { type: 'group.updated', id: group.id });
    }
    return multistatus(reply, [
      dav('response', dav('href', hrefs(user).collection(collection)), ...answer),
    ]);
  }

  async function removeCalendar(request: Request, reply: FastifyReply) {
    const user = davUserOf(request);
    const collection = await collectionOf(caldav, request);
    const groupId = collection.groupId;
    await caldav.removeCalendar(user.id, collection);
    if (groupId !== null) app.live.publish(user.id, { type: 'group.deleted', id: groupId });
    app.live.publish(user.id, { type: 'todos.changed' });
    return reply.code(204).send();
  }

  async function put(request: Request, reply: FastifyReply) {
    const user = davUserOf(request);
    const collection = await collectionOf(caldav, request);
    const name = request.params.name ?? '';
    if (typeof request.body !== 'string') throw badRequest('body: a PUT needs iCalendar data');
    const header = (value: string | string[] | undefined) =>
      typeof value === 'string' ? value : null;
    let written: Awaited<ReturnType<typeof caldav.put>>;
    try {
      written = await caldav.put(user, collection, name, request.body, {
        ifMatch: header(request.headers['if-match']),
        ifNoneMatch: header(request.headers['if-none-match']),
      });
    } catch (error) {
      // A no-uid-conflict names the resource that holds the UID (RFC 4791, 5.3.2.1).
      if (error instanceof DavPrecondition && error.resource !== undefined) {
        const holder = dav('href', hrefs(user).resource(collection, error.resource));
        return davError(reply, error.statusCode, { ...error.condition, children: [holder] });
      }
      throw error;
    }
    const { created, id, etag } = written;
    app.live.publish(user.id, { type: created ? 'todo.created' : 'todo.updated', id });
    await app.notifications.todoEvent(user.id, created ? 'todo.created' : 'todo.updated', id);
    // The new ETag, which a client's next If-Match names (docs/decisions/113-versions-and-if-match.md),
    // only when the object stored is the one sent: else the client reads what Tally made of it.
    if (etag !== null) reply.header('etag', etag);
    return reply.code(created ? 201 : 204).send();
  }

  async function remove(request: Request, reply: FastifyReply) {
    const user = davUserOf(request);
    const collection = await collectionOf(caldav, request);
    const header = request.headers['if-match'];
    const id = await caldav.remove(
      user.id,
      collection,
      request.params.name ?? '',
      typeof header === 'string' ? header : null,
    );
    if (id === null) throw notFound('Todo');
    app.live.publish(user.id, { type: 'todo.deleted', id });
    await app.notifications.todoEvents(user.id, 'todo.deleted', [id]);
    return reply.code(204).send();
  }

  /** A MKCALENDAR below a calendar: calendars are made in the calendar home only. */
  function notAHome(): never {
    throw new AppError(405, 'Calendars are made in the calendar home');
  }

  return { makeCalendar, patchCalendar, removeCalendar, put, remove, notAHome };
}
