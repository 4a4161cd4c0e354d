import { pathOf, type Endpoint, type SuccessBody, type TestCallParts } from '@tally/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * What a call answered: the response as Fastify's inject gives it (statusCode, headers, body
 * text, json()), and its success body as the contract types it.
 */
export type ApiAnswer<E extends Endpoint> = LightMyRequestResponse & {
  /** The body as the contract's success answer (check `statusCode` first). */
  data(): SuccessBody<E>;
  /** The success body, once the status is the one expected (the answer's text if not). */
  expectBody(status: number): SuccessBody<E>;
};

type Input<E extends Endpoint> = TestCallParts<E> & {
  headers?: Record<string, string>;
  remoteAddress?: string;
};

/** A call whose parts are all optional may leave its input out. */
type InputArgs<E extends Endpoint> =
  Record<string, never> extends Input<E> ? [input?: Input<E>] : [input: Input<E>];

/** What the contract refuses, sent as it is: a wrong body, an id that is not one, … */
export interface UncheckedInput {
  params?: Record<string, string | number | undefined>;
  query?: Record<string, string | number | boolean | undefined>;
  /** An object or array is sent as JSON; a string is sent as it is (set its content-type). */
  body?: unknown;
  headers?: Record<string, string>;
  /** The client's address (the tests of limits and logs per address). */
  remoteAddress?: string;
}

/**
 * The API as a test calls it: through the contract's endpoints (contract/src, e.g.
 * `groupsApi.create`), so method, path and the shapes of params, query, body and answer come
 * from the one description the server registers and the web derives its client from. A test
 * then writes no path or method by hand. `user` signs the calls (null: none).
 *
 * `call.unchecked(endpoint, input)` sends what the contract refuses (the tests of 400 answers)
 * to the same endpoint; its answer is not typed.
 */
export function apiClient(
  app: FastifyInstance,
  user: { token: string } | null,
  /** Sent with every call unless a call says otherwise (e.g. the client's address). */
  defaults: Pick<UncheckedInput, 'remoteAddress'> = {},
) {
  async function send(endpoint: Endpoint, input: UncheckedInput = {}) {
    const { params, query, body, headers } = input;
    const remoteAddress = input.remoteAddress ?? defaults.remoteAddress;
    return app.inject({
      ...(remoteAddress ? { remoteAddress } : {}),
      method: endpoint.method,
      url: pathOf(endpoint, params),
      ...(query
        ? {
            query: Object.fromEntries(
              Object.entries(query)
                .filter(([, value]) => value !== undefined)
                .map(([key, value]) => [key, String(value)]),
            ),
          }
        : {}),
      ...(body === undefined ? {} : { payload: body as object | string }),
      headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
    });
  }

  async function call<E extends Endpoint>(
    endpoint: E,
    ...[input]: InputArgs<E>
  ): Promise<ApiAnswer<E>> {
    const response = await send(endpoint, input as UncheckedInput | undefined);
    return Object.assign(response, {
      data: () => response.json<SuccessBody<E>>(),
      expectBody(status: number) {
        expect(response.statusCode, response.body).toBe(status);
        return response.json<SuccessBody<E>>();
      },
    });
  }

  return Object.assign(call, { unchecked: send });
}

/** The typed client of one user (test/api-client.ts, apiClient). */
export type ApiClient = ReturnType<typeof apiClient>;
