import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import { RECENT_AUTH_MINUTES } from './constants.js';
import type { Route } from './routes.js';

/**
 * One /api call, ts-rest style: where it lives (a route of routes.ts) and what it takes and
 * answers. The server registers each endpoint with these schemas (validation, serialisation,
 * OpenAPI); the web derives its typed client from the same description.
 */
export interface Endpoint extends Route {
  summary: string;
  description?: string;
  /** The OpenAPI group. */
  tag: string;
  params?: TSchema;
  query?: TSchema;
  /** The request headers it reads (lower-case names), e.g. If-Match. */
  headers?: TSchema;
  body?: TSchema;
  /** The media type of a successful answer that is not JSON (e.g. text/csv). */
  produces?: string;
  /** Every status the call answers with, and its body (NoContent for an empty one). */
  responses: Record<number, TSchema>;
}

type Described = Omit<Endpoint, keyof Route | 'tag'>;

const RECENT_AUTH_NOTE =
  `Needs a recent proof of identity: 403 with code reauthentication_required when the session ` +
  `has not proved the password (or a fresh Google sign-in) in the last ${RECENT_AUTH_MINUTES} ` +
  'minutes; POST /api/account/reauthenticate, then send the call again. A personal API token never passes.';

/**
 * Every signed-in call may answer 403 with a code (constants.ts, ERROR_CODES): the one-time password
 * must be changed first, or (on a `recentAuth` route) the session must prove the password again.
 * Added here once, so the OpenAPI document shows it on every such call.
 */
function withCodedRefusals(route: Route, described: Described): Described {
  if (route.public) return described;
  const description = route.recentAuth
    ? [described.description, RECENT_AUTH_NOTE].filter(Boolean).join(' ')
    : described.description;
  return {
    ...described,
    ...(description === undefined ? {} : { description }),
    responses: { ...described.responses, 403: ErrorSchema },
  };
}

/** Joins the calls of one feature with their routes, so a path is never written twice. */
export function defineEndpoints<
  const R extends Record<string, Route>,
  const D extends { [K in keyof R]: Described },
>(tag: string, featureRoutes: R, described: D): { [K in keyof R]: R[K] & D[K] & { tag: string } } {
  return Object.fromEntries(
    Object.entries(featureRoutes).map(([name, route]) => [
      name,
      { ...route, ...withCodedRefusals(route, described[name] as Described), tag },
    ]),
  ) as { [K in keyof R]: R[K] & D[K] & { tag: string } };
}

/** An empty answer (204): JSON Schema's null for the document, no body for either side. */
export const NoContent = (description: string): TUnsafe<undefined> =>
  Type.Unsafe<undefined>({ type: 'null', description });

type SuccessStatus = 200 | 201 | 202 | 204;

/** What a successful call answers: the body of its 2xx status, undefined for an empty one. */
export type SuccessBody<E extends Endpoint> = {
  [S in keyof E['responses'] & SuccessStatus]: Static<E['responses'][S]>;
}[keyof E['responses'] & SuccessStatus];

/**
 * One part of a test's call as its endpoint describes it: required when the schema has a
 * required field, optional when every field is (GET /api/todos's query), absent when the
 * endpoint has no such part.
 */
type TestPart<E, K extends 'params' | 'query' | 'body'> = E extends {
  [P in K]: infer S extends TSchema;
}
  ? Record<string, never> extends Static<S>
    ? { [P in K]?: Static<S> }
    : { [P in K]: Static<S> }
  : { [P in K]?: never };

/**
 * What a test's call takes (the server's API tests and the e2e specs): the parts its endpoint
 * describes, those whose every field is optional left optional.
 */
export type TestCallParts<E extends Endpoint> = TestPart<E, 'params'> &
  TestPart<E, 'query'> &
  TestPart<E, 'body'>;

/** What a call takes: exactly the parts its endpoint describes. */
export type EndpointInput<E extends Endpoint> = (E extends { params: infer P extends TSchema }
  ? { params: Static<P> }
  : { params?: never }) &
  (E extends { query: infer Q extends TSchema } ? { query: Static<Q> } : { query?: never }) &
  (E extends { body: infer B extends TSchema } ? { body: Static<B> } : { body?: never }) &
  (E extends { headers: infer H extends TSchema } ? { headers?: Static<H> } : { headers?: never });
