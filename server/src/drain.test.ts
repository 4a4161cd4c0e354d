import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
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
      // loop looks like when the drain checks run.
      const socket = await connected(port);
      await new Promise((resolve) => setTimeout(resolve, 20));

      let drained = false;
      const draining = shutdown.drain(2_000).then(() => (drained = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(drained).toBe(false);

      const answer = answerOf(socket);
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await answer).toMatch(/^HTTP\/1\.1 503/);
      await draining;
      expect(drained).toBe(true);
    } finally {
      await app.close();
    }
  });
});
