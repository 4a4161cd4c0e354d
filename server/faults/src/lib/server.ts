// Tally's compiled server (server/dist/main.js) as a child process on a free loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { boundPort, request } from './http.js';
import { root } from './settings.js';

const main = path.join(root, 'server/dist/main.js');
const probe = new URL('../memory-probe.js', import.meta.url).href;
const JWT_SECRET = 'fault-harness-secret-that-is-long-enough-32';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When the process ended (ms since the epoch). */
  at: number;
}

export interface RunningServer {
  port: number;
  child: ChildProcess;
  exited: Promise<Exit>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = boundPort(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the server with the given database env and waits until /api/health answers 200. Rate
 * limits are lifted because the suites log in far more often than a person would.
 */
export async function startServer(
  env: Record<string, string>,
  { memoryProbe = false }: { memoryProbe?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(memoryProbe ? ['--import', probe] : []), main], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      LOG_LEVEL: 'error',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const health = await request(port, 'GET', '/api/health', { timeout: 2000 });
    if (health.status === 200) return { port, child, exited };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start: ${stderr.slice(-2000)}`);
}

export async function stopServer(server: RunningServer): Promise<Exit> {
  server.child.kill('SIGTERM');
  return server.exited;
}
