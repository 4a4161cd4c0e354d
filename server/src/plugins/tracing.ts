import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/connection.js';

export interface TracingPluginOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT, without a trailing slash. */
  endpoint: string;
  database: Partial<Pick<DatabaseHandle, 'dialect' | 'observeQueries'>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    traceSpan?: Span;
  }
}

/** SQL's first word (SELECT, INSERT…), which names a query's span as OpenTelemetry advises. */
const operationOf = (statement: string) =>
  /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase() ?? 'QUERY';

/**
 * OpenTelemetry traces (docs/decisions/133-traces-when-asked.md), loaded by app.ts with import()
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set. A span per request (its route pattern, method and
 * status: never the path itself, which may hold a calendar feed's secret, nor headers or body)
 * and a span per SQL query under it (the statement with its placeholders, never the values). The
 * provider is this app's own, not registered globally, so each app (and each test) keeps its own.
 */
export const tracingPlugin = fp<TracingPluginOptions>(
  async (app, { endpoint, database }) => {
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'tally' }),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
        }),
      ],
    });
    const tracer = provider.getTracer('tally');
    const dbSystem = database.dialect === 'postgres' ? 'postgresql' : 'sqlite';
    // The request a query belongs to: Fastify has no hook around the handler, so the request's
    // span is entered in onRequest and every later step of that request inherits it.
    const current = new AsyncLocalStorage<Span>();

    database.observeQueries?.(async (statement, run) => {
      const parent = current.getStore();
      const span = tracer.startSpan(
        operationOf(statement),
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': dbSystem, 'db.query.text': statement },
        },
        parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
      );
      try {
        return await run();
      } catch (error) {
        // The error's class only: a driver's message can quote the values.
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
        throw error;
      } finally {
        span.end();
      }
    });

    const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

    app.addHook('onRequest', (request, _reply, done) => {
      const route = routeOf(request);
      const span = tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'http.route': route },
        },
        ROOT_CONTEXT,
      );
      request.traceSpan = span;
      current.enterWith(span);
      done();
    });
    app.addHook('onResponse', async (request, reply) => {
      const span = request.traceSpan;
      if (!span) return;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    app.addHook('onRequestAbort', async (request) => {
      request.traceSpan?.setAttribute('error.type', 'aborted');
      request.traceSpan?.end();
    });
    app.addHook('onClose', async () => {
      database.observeQueries?.(null);
      await provider.shutdown();
    });
  },
  { name: 'tracing' },
);
