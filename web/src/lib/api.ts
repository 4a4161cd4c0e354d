import type { Contract, Endpoint, EndpointInput, SuccessBody } from '@tally/contract';
import { pathOf, routes, type Route } from '@tally/contract/routes';
import { apiRequest, type Operation } from './api-client';
import type { OfflineCall } from './outbox';
import { isOffline } from './online';

interface CallOptions {
  /** The sentence its failure shows when the server gives none, e.g. "Create todo failed". */
  operation: Operation;
  signal?: AbortSignal;
  /** Reads a successful answer's headers (a page's x-next-cursor) before its body is parsed. */
  onResponse?: (response: Response) => void;
}

type Answer<E extends Endpoint> = E extends { stream: true }
  ? ReadableStream<Uint8Array>
  : SuccessBody<E>;

/**
 * One call of the contract: its params, query and body as the contract types them. A stream
 * route (server-sent events) answers its body unread, to be read as it comes. An offline-capable
 * route takes `offline`, its answer while the browser is offline.
 */
type ApiCall<E extends Endpoint> = E extends { offline: true }
  ? {
      (request: EndpointInput<E> & CallOptions): Promise<Answer<E>>;
      <R>(
        request: EndpointInput<E> &
          CallOptions & { offline: () => OfflineCall<R> | Promise<OfflineCall<R>> },
      ): Promise<Answer<E> | R>;
    }
  : (request: EndpointInput<E> & CallOptions) => Promise<Answer<E>>;

export type ApiClient = {
  [F in keyof Contract]: {
    [N in keyof Contract[F]]: Contract[F][N] extends Endpoint ? ApiCall<Contract[F][N]> : never;
  };
};

/** The route's path with its `:name` parameters filled in, and the query string appended. */
function urlOf(route: Route, params?: object, query?: object): string {
  const path = pathOf(route, params);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

/** The body of a multipart route (a file upload) as the form the server reads. */
function formOf(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value);
    else form.append(name, String(value));
  }
  return form;
}

interface Call extends CallOptions {
  params?: object;
  query?: object;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

function callOf(route: Route) {
  return async ({
    offline,
    ...call
  }: Call & { offline?: () => OfflineCall<unknown> | Promise<OfflineCall<unknown>> }) => {
    if (route.offline && offline && isOffline()) {
      // The queue's code loads on first use (precached by the service worker, so offline too).
      const [{ queueCall }, answer] = await Promise.all([import('./outbox'), offline()]);
      return queueCall(route, call, answer, urlOf);
    }
    const { params, query, body, headers, operation, signal, onResponse } = call;
    return apiRequest(urlOf(route, params, query), {
      method: route.method,
      body: route.multipart ? formOf(body) : body,
      headers,
      operation,
      signal,
      onResponse,
      stream: route.stream === true,
    });
  };
}

/**
 * The typed client of every /api call, derived from the contract: `api.todos.create({ body,
 * operation })`. Built from the routes alone (method and path), so the schemas stay out of the
 * browser bundle; the types come from the whole contract.
 */
export const api = Object.fromEntries(
  Object.entries(routes).map(([feature, calls]) => [
    feature,
    Object.fromEntries(
      Object.entries(calls).map(([name, route]: [string, Route]) => [name, callOf(route)]),
    ),
  ]),
) as ApiClient;
