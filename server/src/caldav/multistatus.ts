import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { timeSlicer } from '../shared/time-slices.js';
import { buildXml, dav, type XmlNode, xmlChunks } from './xml.js';

/**
 * The 207 multistatus answers of PROPFIND, REPORT and PROPPATCH, written a response at a time
 * while their pages are read, and the DAV error bodies of a failed precondition.
 */

/** A <response> per item, each made when it is written and then dropped. */
export function* each<T>(items: Iterable<T>, answer: (item: T) => XmlNode): Generator<XmlNode> {
  for (const item of items) yield answer(item);
}

/**
 * A <response> per item of pages read one after the other (caldav/service.ts, memberPages), each
 * page answered before the next is read; an item answered null (a calendar-query's object that
 * does not match) is left out.
 */
export async function* eachOfPages<T>(
  pages: AsyncIterable<readonly T[]>,
  answer: (item: T) => XmlNode | null,
): AsyncGenerator<XmlNode> {
  // Items left out give the event loop its turns too (concat gives them after responses): a
  // filter's test of one object, a repeating todo's occurrences, takes up to milliseconds.
  const slice = timeSlicer();
  for await (const page of pages) {
    for (const item of page) {
      const response = answer(item);
      if (response) yield response;
      else await slice();
    }
  }
}

export type Responses = Iterable<XmlNode> | AsyncIterable<XmlNode>;

/**
 * The groups' responses in order, giving the event loop a turn every 10 ms of work between
 * them: writing one object and matching it against a filter takes up to a few milliseconds
 * (caldav/limits.ts bounds its size), and without turns a full sync on SQLite, whose reads do
 * not wait, would hold every other request until it is written whole.
 */
async function* concat(groups: Responses[]): AsyncGenerator<XmlNode> {
  const slice = timeSlicer();
  for (const group of groups) {
    for await (const response of group) {
      yield response;
      await slice();
    }
  }
}

/** The pieces already taken from `rest`, then the others. */
async function* resume(taken: string[], rest: AsyncIterator<string>): AsyncGenerator<string> {
  yield* taken;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * A 207 multistatus of the groups' responses (and a sync-token), in order. An answer of one
 * piece (xml.ts, xmlChunks: under 16 KB) is sent whole with its length, as before; a longer one
 * is streamed (chunked), written while its pages are read, so a full sync's answer is never in
 * memory whole (docs/performance.md, CalDAV). A database error once the first pieces are sent
 * can only cut the answer short: the client sees an incomplete body and asks again.
 */
export async function multistatus(reply: FastifyReply, ...groups: Responses[]) {
  const chunks = xmlChunks(dav('multistatus'), concat(groups));
  const taken: string[] = [];
  while (taken.length < 2) {
    const next = await chunks.next();
    if (next.done) break;
    taken.push(next.value);
  }
  reply.code(207).header('content-type', 'application/xml; charset=utf-8');
  if (taken.length < 2) return reply.send(taken.join(''));
  return reply.send(Readable.from(resume(taken, chunks)));
}

/** A DAV precondition failure: the status and an <error> naming the condition. */
export const davError = (reply: FastifyReply, status: number, condition: XmlNode) =>
  reply
    .code(status)
    .header('content-type', 'application/xml; charset=utf-8')
    .send(buildXml(dav('error', condition)));
