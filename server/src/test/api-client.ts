import type { Endpoint, EndpointInput, SuccessBody } from '@tally/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** What a call answered: its status, its success body as the contract types it, and the rest. */
export interface ApiAnswer<E extends Endpoint> {
  status: number;
  /** The body as the contract's success answer (check `status` first). */
  body(): SuccessBody<E>;
  response: LightMyRequestResponse;
}

type Input<E extends Endpoint> = EndpointInput<E> & { headers?: Record<string, string> };

/** A call without params, query or body may leave its input out. */
type InputArgs<E extends Endpoint> =
  Record<string, never> extends EndpointInput<E> ? [input?: Input<E>] : [input: Input<E>];

/**
 * The API as a test calls it: through the contract's endpoints (contract/src, e.g.
 * `groupsApi.create`), so method, path and the shapes of params, query, body and answer come
 * from the one description the server registers and the web derives its client from. A test
 * then writes no path or method by hand. `user` signs the calls (null: none).
 */
export function apiClient(app: FastifyInstance, user: { token: string } | null) {
  return async function call<E extends Endpoint>(
    endpoint: E,
    ...[input]: InputArgs<E>
  ): Promise<ApiAnswer<E>> {
    const { params, query, body, headers } = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    };
    const url = endpoint.path.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(String(params?.[name])),
    );
    const response = await app.inject({
      method: endpoint.method,
      url,
      ...(query
        ? {
            query: Object.fromEntries(
              Object.entries(query)
                .filter(([, value]) => value !== undefined)
                .map(([key, value]) => [key, String(value)]),
            ),
          }
        : {}),
      ...(body === undefined ? {} : { payload: body as object }),
      headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
    });
    return {
      status: response.statusCode,
      body: () => response.json<SuccessBody<E>>(),
      response,
    };
  };
}
