import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gracefulDrain } from './drain.js';

const open: Socket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.destroy();
});

async function connected(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  open.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

function answerOf(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => resolve(text));
  });
}

describe('graceful drain', () => {
  it('waits for a connection whose request has not been read yet, which then gets a 503', async () => {
    const app = Fastify();
    const shutdown = gracefulDrain(app);
    shutdown.track();
    app.get('/api/health', async () => ({ status: 'ok' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      // Accepted by the server, request not sent yet: what a burst queued behind a busy event
      // loop looks like when the drain checks run. Once the server has seen it, it is unread.
      const seen = new Promise((resolve) => app.server.once('connection', resolve));
      const socket = await connected(port);
      await seen;

      // The drain's checks on a fake clock: a second is twenty checks, where two quiet ones
      // would end it, without waiting a second or guessing how long is enough.
      vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
      let drained = false;
      const draining = shutdown.drain(2_000).then(() => (drained = true));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(drained).toBe(false);

      const answer = answerOf(socket);
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await answer).toMatch(/^HTTP\/1\.1 503/);
      // Two quiet checks once the request is read: well before the limit.
      await vi.advanceTimersByTimeAsync(150);
      await draining;
      expect(drained).toBe(true);
    } finally {
      vi.useRealTimers();
      await app.close();
    }
  });
});
