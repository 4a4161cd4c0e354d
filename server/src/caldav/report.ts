import type { FastifyReply, FastifyRequest } from 'fastify';
import { batches } from '../shared/batches.js';
import { badRequest } from '../shared/errors.js';
import { davUserOf } from './auth.js';
import { MULTIGET_HREFS_MAX } from './limits.js';
import { compMatches } from './filters.js';
import { davError, each, eachOfPages, multistatus } from './multistatus.js';
import {
  bodyXml,
  enc,
  hrefs,
  PRINCIPAL_PROPS,
  PRINCIPAL_SEARCH,
  propRequestOf,
  resourceAnswer,
  responseOf,
  SYNC_PREFIX,
} from './properties.js';
import { collectionOf, type DavParams } from './propfind.js';
import { type createCaldavService, RESOURCES_PER_PAGE } from './service.js';
import {
  buildXml,
  childElements,
  dav,
  el,
  firstChild,
  isElement,
  nameKey,
  nameOf,
  NS,
  textOf,
} from './xml.js';

/**
 * A multiget's href below /dav as decoded segments. No segment holds a NUL: no name Tally keeps
 * can (PostgreSQL refuses it).
 */
function hrefSegments(url: string): string[] {
  let segments: string[];
  try {
    segments = new URL(url, 'http://tally.invalid').pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part))
      .slice(1);
  } catch {
    throw badRequest('href is malformed (not a URL, or bad percent-encoding)');
  }
  if (segments.some((segment) => segment.includes('\u0000'))) {
    throw badRequest('href must not contain NUL characters');
  }
  return segments;
}

/**
 * REPORT (RFC 3253, 3.6): on a calendar, calendar-query, calendar-multiget and sync-collection;
 * on the root, the principal or the calendar home, the principal searches.
 */
export function reportHandlers(caldav: ReturnType<typeof createCaldavService>) {
  /** REPORT on a calendar: calendar-query, calendar-multiget or sync-collection. */
  async function calendar(request: FastifyRequest<{ Params: DavParams }>, reply: FastifyReply) {
    const user = davUserOf(request);
    const collection = await collectionOf(caldav, request);
    const root = bodyXml(request);
    if (!root) throw badRequest('body: a REPORT needs a body');
    const wanted = propRequestOf(root);
    const h = hrefs(user);
    const answer = resourceAnswer(user, collection, wanted);
    if (isElement(root, NS.caldav, 'calendar-multiget')) {
      const base = h.collection(collection);
      const asked = childElements(root)
        .filter((child) => isElement(child, NS.dav, 'href'))
        .map((href) => textOf(href));
      if (asked.length > MULTIGET_HREFS_MAX) {
        throw badRequest(
          `href: a calendar-multiget names at most ${MULTIGET_HREFS_MAX.toLocaleString('en')} hrefs`,
        );
      }
      const byHref = new Map<string, string>();
      for (const href of asked) {
        const segments = hrefSegments(href);
        const name = segments[3];
        const inCollection = `/dav/${segments.slice(0, 3).map(enc).join('/')}/` === base;
        if (name !== undefined && inCollection && segments.length === 4) byHref.set(href, name);
      }
      // The objects are read a page of hrefs at a time, each page answered before the next.
      async function* pages() {
        const named = caldav.namedPages(
          user.id,
          collection.groupId,
          batches(asked, RESOURCES_PER_PAGE),
          (page) => page.flatMap((href) => byHref.get(href) ?? []),
        );
        for await (const { page, found } of named) {
          yield page.map((href) => ({ href, resource: found.get(byHref.get(href) ?? '') }));
        }
      }
      return multistatus(
        reply,
        eachOfPages(pages(), ({ href, resource }) =>
          resource
            ? answer(resource)
            : dav('response', dav('href', href), dav('status', 'HTTP/1.1 404 Not Found')),
        ),
      );
    }
    if (isElement(root, NS.caldav, 'calendar-query')) {
      const filter = firstChild(root, NS.caldav, 'filter');
      const top = filter ? firstChild(filter, NS.caldav, 'comp-filter') : undefined;
      return multistatus(
        reply,
        eachOfPages(caldav.memberPages(user.id, collection.groupId), (resource) =>
          !top || compMatches(top, [resource.component]) ? answer(resource) : null,
        ),
      );
    }
    if (isElement(root, NS.dav, 'sync-collection')) {
      const tokenElement = firstChild(root, NS.dav, 'sync-token');
      const given = tokenElement ? textOf(tokenElement) : '';
      const { current, oldest } = await caldav.syncTokens(user.id);
      const tokenNode = dav('sync-token', `${SYNC_PREFIX}${current}`);
      if (!given) {
        return multistatus(
          reply,
          eachOfPages(caldav.memberPages(user.id, collection.groupId), answer),
          [tokenNode],
        );
      }
      const number = given.startsWith(SYNC_PREFIX) ? Number(given.slice(SYNC_PREFIX.length)) : NaN;
      // A token never given out, or one older than the kept change log (decision 092): the
      // client syncs afresh without a token (RFC 6578, 3.2).
      if (!Number.isInteger(number) || number < oldest || number > current) {
        return davError(reply, 403, dav('valid-sync-token'));
      }
      const { changed, removed } = await caldav.changesSince(user.id, collection.groupId, number);
      return multistatus(
        reply,
        each(changed, answer),
        each(removed, (name) =>
          dav(
            'response',
            dav('href', h.resource(collection, name)),
            dav('status', 'HTTP/1.1 404 Not Found'),
          ),
        ),
        [tokenNode],
      );
    }
    return davError(reply, 403, dav('supported-report'));
  }

  /**
   * REPORT on the root, the principal or the calendar home (RFC 3744, 9.4 and 9.5): apps look
   * for calendar users there (python-caldav's principals(), Apple's sharing sheet). A user sees
   * only their own principal: it is answered when the search matches it, else none is.
   */
  function principals(request: FastifyRequest, reply: FastifyReply) {
    const user = davUserOf(request);
    const root = bodyXml(request);
    if (!root) throw badRequest('body: a REPORT needs a body');
    if (isElement(root, NS.dav, 'principal-search-property-set')) {
      const searchable = [...PRINCIPAL_SEARCH.values()].map(({ name, description }) =>
        dav('principal-search-property', dav('prop', el(name.ns, name.name)), {
          ns: NS.dav,
          name: 'description',
          attributes: { 'xml:lang': 'en' },
          children: [description],
        }),
      );
      return reply
        .code(200)
        .header('content-type', 'application/xml; charset=utf-8')
        .send(buildXml(dav('principal-search-property-set', ...searchable)));
    }
    if (!isElement(root, NS.dav, 'principal-property-search')) {
      return davError(reply, 403, dav('supported-report'));
    }
    const matches = childElements(root)
      .filter((child) => isElement(child, NS.dav, 'property-search'))
      .map((search) => {
        const prop = firstChild(search, NS.dav, 'prop');
        const match = firstChild(search, NS.dav, 'match');
        const wanted = match ? textOf(match).toLowerCase() : '';
        return (prop ? childElements(prop) : []).some((property) =>
          (PRINCIPAL_SEARCH.get(nameKey(nameOf(property)))?.values(user) ?? []).some((value) =>
            value.toLowerCase().includes(wanted),
          ),
        );
      });
    const found =
      matches.length > 0 &&
      (root.getAttribute('test') === 'anyof' ? matches.some(Boolean) : matches.every(Boolean));
    const principal = responseOf(
      hrefs(user).principal,
      PRINCIPAL_PROPS,
      { user },
      propRequestOf(root),
    );
    return multistatus(reply, found ? [principal] : []);
  }

  return { calendar, principals };
}
