import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../shared/errors.js';
import { davUserOf } from './auth.js';
import { eachOfPages, multistatus } from './multistatus.js';
import {
  bodyXml,
  CALENDAR_PROPS,
  HOME_PROPS,
  hrefs,
  PRINCIPAL_PROPS,
  type PropRequest,
  propRequestOf,
  resourceAnswer,
  responseOf,
  ROOT_PROPS,
} from './properties.js';
import type { Collection, createCaldavService, DavUser } from './service.js';
import { isElement, NS, type XmlNode } from './xml.js';

/** The path parameters of the /dav routes. */
export interface DavParams {
  owner?: string;
  calendar?: string;
  name?: string;
}

type Caldav = ReturnType<typeof createCaldavService>;

/**
 * PROPFIND (RFC 4918, 9.1) on each kind of resource: depth 0 or 1 ("infinity" is answered as 1),
 * the resource and, at depth 1, its members.
 */
export function propfindHandlers(caldav: Caldav) {
  const asked = (request: FastifyRequest) => {
    const root = bodyXml(request);
    if (root && !isElement(root, NS.dav, 'propfind'))
      throw badRequest('body: expected a DAV:propfind');
    return { wanted: propRequestOf(root), deep: request.headers.depth !== '0' };
  };

  /** A calendar's <response>, with its ctag and sync token read first. */
  async function calendarResponse(user: DavUser, collection: Collection, wanted: PropRequest) {
    const [ctag, syncToken] = await Promise.all([
      caldav.ctag(user.id, collection),
      caldav.syncToken(user.id),
    ]);
    const subject = { user, collection, ctag, syncToken };
    return responseOf(hrefs(user).collection(collection), CALENDAR_PROPS, subject, wanted);
  }

  return {
    async root(request: FastifyRequest, reply: FastifyReply) {
      const user = davUserOf(request);
      const { wanted, deep } = asked(request);
      const here = new URL(request.url, 'http://tally.invalid').pathname;
      const responses: XmlNode[] = [responseOf(here, ROOT_PROPS, { user }, wanted)];
      if (deep)
        responses.push(responseOf(hrefs(user).principal, PRINCIPAL_PROPS, { user }, wanted));
      return multistatus(reply, responses);
    },

    async principal(request: FastifyRequest, reply: FastifyReply) {
      const user = davUserOf(request);
      const { wanted } = asked(request);
      return multistatus(reply, [
        responseOf(hrefs(user).principal, PRINCIPAL_PROPS, { user }, wanted),
      ]);
    },

    async home(request: FastifyRequest, reply: FastifyReply) {
      const user = davUserOf(request);
      const { wanted, deep } = asked(request);
      const responses: XmlNode[] = [responseOf(hrefs(user).home, HOME_PROPS, { user }, wanted)];
      if (deep) {
        for (const collection of await caldav.collections(user.id)) {
          responses.push(await calendarResponse(user, collection, wanted));
        }
      }
      return multistatus(reply, responses);
    },

    async calendar(request: FastifyRequest<{ Params: DavParams }>, reply: FastifyReply) {
      const user = davUserOf(request);
      const { wanted, deep } = asked(request);
      const collection = await collectionOf(caldav, request);
      const responses = [await calendarResponse(user, collection, wanted)];
      if (!deep) return multistatus(reply, responses);
      return multistatus(
        reply,
        responses,
        eachOfPages(
          caldav.memberPages(user.id, collection.groupId),
          resourceAnswer(user, collection, wanted),
        ),
      );
    },

    async object(request: FastifyRequest<{ Params: DavParams }>, reply: FastifyReply) {
      const user = davUserOf(request);
      const { wanted } = asked(request);
      const collection = await collectionOf(caldav, request);
      const resource = await caldav.resource(
        user.id,
        collection.groupId,
        request.params.name ?? '',
      );
      if (!resource) throw notFound('Todo');
      return multistatus(reply, [resourceAnswer(user, collection, wanted)(resource)]);
    },
  };
}

/** The calendar the request's path names, or a 404. */
export async function collectionOf(
  caldav: Caldav,
  request: FastifyRequest<{ Params: DavParams }>,
): Promise<Collection> {
  const collection = await caldav.collection(davUserOf(request).id, request.params.calendar ?? '');
  if (!collection) throw notFound('Calendar');
  return collection;
}
