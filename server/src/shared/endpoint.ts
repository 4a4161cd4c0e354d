import type { Endpoint } from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  preHandlerAsyncHookHandler,
} from 'fastify';

/** The Fastify schema of an endpoint, with each part typed as the contract describes it. */
type SchemaOf<E extends Endpoint> = {
  params: E extends { params: infer P } ? P : undefined;
  querystring: E extends { query: infer Q } ? Q : undefined;
  body: E extends { body: infer B } ? B : undefined;
  response: E['responses'];
};

/** A handler whose request and reply are typed by the endpoint's schemas. */
export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  TypeBoxTypeProvider
>;

export interface EndpointOptions {
  /** Route settings beside `public`, which the contract decides (e.g. a rate limit). */
  config?: Omit<FastifyContextConfig, 'public'>;
  preHandler?: preHandlerAsyncHookHandler;
}

/**
 * Registers a contract endpoint: its method and path, the schemas that validate the request and
 * serialise the answer (and make the OpenAPI document), and whether it is public. Routes are
 * added only this way, so what the server serves is what contract/ describes.
 */
export function addEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: EndpointOptions = {},
): void {
  const schema: FastifySchema & { tags: string[]; summary: string; description?: string } = {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    response: endpoint.responses,
  };
  if (endpoint.description) schema.description = endpoint.description;
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    config: { ...options.config, public: endpoint.public === true },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    // The handler's types come from the same schemas, which Fastify's plain route() cannot see.
    handler: handler as RouteHandlerMethod,
  });
}
