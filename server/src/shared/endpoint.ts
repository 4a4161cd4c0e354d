import type { Endpoint } from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  preHandlerAsyncHookHandler,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An answer that stays open (server-sent events): not an in-flight request to wait for. */
    stream?: boolean;
    /** The contract's Route.recentAuth: checked by the authentication hook. */
    recentAuth?: boolean;
    /** The contract's Route.beforePasswordChange: checked by the authentication hook. */
    beforePasswordChange?: boolean;
  }
}

/** The Fastify schema of an endpoint, with each part typed as the contract describes it. */
type SchemaOf<E extends Endpoint> = {
  params: E extends { params: infer P } ? P : undefined;
  querystring: E extends { query: infer Q } ? Q : undefined;
  headers: E extends { headers: infer H } ? H : undefined;
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
  /** Route settings beside those the contract decides (e.g. a rate limit). */
  config?: Omit<FastifyContextConfig, 'public' | 'stream' | 'recentAuth' | 'beforePasswordChange'>;
  preHandler?: preHandlerAsyncHookHandler;
  /**
   * The handler's 200 answer is built field by field as its schema says (todos/rows.ts toTodo),
   * so JSON.stringify writes it instead of the schema's serialiser: for the list of 200 todos,
   * fast-json-stringify's string concatenation allocated 3 times the answer, which made the young
   * generation, and the server's peak memory, larger (docs/performance.md, Footprint).
   */
  answerBuiltExactly?: boolean;
}

/**
 * The app's own compiler (the validation plugin's validator or serialiser), for the parts of a
 * route it does not replace.
 */
function appCompiler<C>(compile: C | undefined): C {
  if (!compile) throw new Error('The validation plugin must be registered before the routes');
  return compile;
}

const writeJson = (data: unknown) => JSON.stringify(data);

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
  const schema: FastifySchema & {
    tags: string[];
    summary: string;
    description?: string;
    consumes?: string[];
    produces?: string[];
  } = {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    response: endpoint.responses,
  };
  if (endpoint.description) schema.description = endpoint.description;
  if (endpoint.multipart) schema.consumes = ['multipart/form-data'];
  if (endpoint.produces) schema.produces = [endpoint.produces];
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.headers) schema.headers = endpoint.headers;
  if (endpoint.body) schema.body = endpoint.body;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    config: {
      ...options.config,
      public: endpoint.public === true,
      ...(endpoint.stream ? { stream: true } : {}),
      ...(endpoint.recentAuth ? { recentAuth: true } : {}),
      ...(endpoint.beforePasswordChange ? { beforePasswordChange: true } : {}),
    },
    // A multipart body is read part by part by its handler (request.parts(), with limits and a
    // sentence per problem); its schema only documents the form. The other parts are validated.
    ...(endpoint.multipart
      ? {
          validatorCompiler: (route: Parameters<FastifySchemaCompiler<FastifySchema>>[0]) =>
            route.httpPart === 'body' ? () => true : appCompiler(app.validatorCompiler)(route),
        }
      : {}),
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    ...(options.answerBuiltExactly
      ? {
          serializerCompiler: (route: Parameters<FastifySerializerCompiler<FastifySchema>>[0]) =>
            route.httpStatus === '200' ? writeJson : appCompiler(app.serializerCompiler)(route),
        }
      : {}),
    // The handler's types come from the same schemas, which Fastify's plain route() cannot see.
    handler: handler as RouteHandlerMethod,
  });
}
