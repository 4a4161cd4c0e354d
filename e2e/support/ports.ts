/**
 * Where one e2e environment listens: a Tally server at its base port (E2E_PORT, 3100) and each
 * local service at a fixed offset from it. The run starts one environment per worker, 100 ports
 * apart (playwright.config.ts), and a worker uses the one of its parallel index, which Playwright
 * gives it in TEST_PARALLEL_INDEX (the runner itself has none: it names the first).
 */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The base port of the environment with this index. */
export function basePort(index: number): number {
  return FIRST_PORT + 100 * index;
}

/** This process's environment: a worker's own, the runner's first. */
export const ENVIRONMENT_INDEX = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const E2E_PORT = basePort(ENVIRONMENT_INDEX);

const PORT_OFFSETS = {
  googleIdp: 1,
  smtp: 2,
  mailbox: 3,
  oidc: 4,
  imap: 6,
  delivery: 7,
  receivers: 8,
  receiversControl: 9,
  /** never-lose-an-edit.spec.ts's server that is stopped and started again. */
  restartedServer: 10,
  /** first-start-and-forward-auth.spec.ts's server on an empty database and its proxy. */
  firstStartServer: 20,
  forwardAuthProxy: 21,
} as const;

export function e2ePort(name: keyof typeof PORT_OFFSETS, base = E2E_PORT): number {
  return base + PORT_OFFSETS[name];
}
