import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../db/connection.js';
import { createTestApp, createTestDatabase, pgUrl, redisUrl } from '../test/helpers.js';

/**
 * A TCP relay to the test's PostgreSQL that can be stopped, so the database goes away under a
 * running server as when its host stops (the shared test database itself keeps running).
 */
async function relayTo(target: URL): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('health for orchestrators', () => {
  it('GET /healthz and /readyz answer 200 while the database answers, never cached', async () => {
    const ctx = await createTestApp();
    cleanups.push(() => ctx.close());
    const live = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('/readyz answers 503 once the database is stopped, while /healthz still answers', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    if (pgUrl) {
      const relay = await relayTo(new URL(pgUrl));
      const handle = connect({ databaseUrl: relay.url, dataDir: database.dataDir, poolSize: 2 });
      cleanups.push(() => relay.stop());
      const ctx = await createTestApp({ database: { ...database, handle } });
      cleanups.push(async () => {
        await ctx.close();
        await handle.db.destroy().catch(() => undefined);
      });
      expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await relay.stop();
      const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'failing', checks: { database: 'failing' } });
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } else {
      // SQLite lives in the process: "stopped" is its connection closed.
      const handle = database.reconnect();
      const ctx = await createTestApp({ database: { ...database, handle } });
      cleanups.push(() => ctx.close());
      expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await handle.db.destroy();
      const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'failing', checks: { database: 'failing' } });
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
  });

  it('/readyz checks Redis when REDIS_URL is set: 503 while it cannot be reached', async () => {
    // Port 9 (discard) has no Redis on a test machine: connections are refused at once.
    const ctx = await createTestApp({ config: { redisUrl: 'redis://127.0.0.1:9' } });
    cleanups.push(() => ctx.close());
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'failing',
      checks: { database: 'ok', redis: 'failing' },
    });
  });

  it.runIf(redisUrl)('/readyz answers 200 with a reachable Redis', async () => {
    const ctx = await createTestApp({ config: { redisUrl } });
    cleanups.push(() => ctx.close());
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    expect(ready.statusCode).toBe(200);
  });
});
