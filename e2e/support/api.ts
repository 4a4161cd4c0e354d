import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { Contract, Endpoint, SuccessBody, TestCallParts } from '@tally/contract';
import { pathOf, routes, type Route } from '@tally/contract/routes';

/**
 * The API as a spec calls it, derived from the contract as the web's client is
 * (web/src/lib/api.ts): `apiAs(request, user).todos.create({ body })`. Method and path come from
 * the contract's route table and params, query, body and answer from its schemas, so a spec
 * writes no path or method by hand and a misspelt call or field fails to compile. Only the route
 * table is loaded at run time; the schemas are types.
 */

/** What a call answered: Playwright's response, and its success body as the contract types it. */
type ApiAnswer<E extends Endpoint> = APIResponse & {
  /** The body as the contract's success answer (check the status first): undefined when empty. */
  data(): Promise<SuccessBody<E>>;
};

/** A call under way; `expectOk()` waits for it, fails unless it succeeded, and gives its body. */
type ApiPromise<E extends Endpoint> = Promise<ApiAnswer<E>> & {
  expectOk(): Promise<SuccessBody<E>>;
};

/** Headers beside the signed-in user's (x-time-zone, If-Match). */
interface CallHeaders {
  headers?: Record<string, string>;
}

type Input<E extends Endpoint> = TestCallParts<E> & CallHeaders;

/** A call whose parts are all optional may leave its input out. */
type InputArgs<E extends Endpoint> =
  Record<string, never> extends Input<E> ? [input?: Input<E>] : [input: Input<E>];

export type ApiClient = {
  [F in keyof Contract]: {
    [N in keyof Contract[F]]: Contract[F][N] extends Endpoint
      ? (...input: InputArgs<Contract[F][N]>) => ApiPromise<Contract[F][N]>
      : never;
  };
};

/** A call's input once typed: what is sent. */
interface SentInput extends CallHeaders {
  params?: object;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** A JSON answer parsed, a text one (CSV, iCalendar) as its text, an empty one as undefined. */
async function bodyOf(response: APIResponse): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (/^text\//.test(response.headers()['content-type'] ?? '')) return text;
  return JSON.parse(text) as unknown;
}

/** The calls of `user` (null: signed in as nobody) through Playwright's request context. */
export function apiAs(request: APIRequestContext, user: { token: string } | null): ApiClient {
  function send<E extends Endpoint>(route: Route, input: SentInput = {}): ApiPromise<E> {
    const { params, query, body, headers } = input;
    const path = pathOf(route, params);
    const answer = request
      .fetch(path, {
        method: route.method,
        ...(query
          ? {
              params: Object.fromEntries(
                Object.entries(query)
                  .filter(([, value]) => value !== undefined)
                  .map(([key, value]) => [key, String(value)]),
              ),
            }
          : {}),
        ...(body === undefined ? {} : { data: body }),
        headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
      })
      .then((response) =>
        Object.assign(response, { data: () => bodyOf(response) as Promise<SuccessBody<E>> }),
      );
    return Object.assign(answer, {
      async expectOk() {
        const response = await answer;
        expect(response.ok(), `${route.method} ${path}: ${await response.text()}`).toBe(true);
        return response.data();
      },
    });
  }

  return Object.fromEntries(
    Object.entries(routes).map(([feature, featureRoutes]) => [
      feature,
      Object.fromEntries(
        Object.entries(featureRoutes).map(([name, route]: [string, Route]) => [
          name,
          (input?: SentInput) => send(route, input),
        ]),
      ),
    ]),
  ) as unknown as ApiClient;
}
