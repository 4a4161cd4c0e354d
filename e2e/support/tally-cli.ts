import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ENVIRONMENT_INDEX } from './ports';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The data folder of the Tally server of the environment with this index (this worker's by
 * default), inside the run's folder that playwright.config.ts makes.
 */
export function environmentDataDir(index = ENVIRONMENT_INDEX): string {
  const runFolder = process.env.E2E_DATA_DIR;
  if (!runFolder) throw new Error('E2E_DATA_DIR is set by e2e/playwright.config.ts');
  return path.join(runFolder, String(index));
}

/** `tally …` on this worker's server's data, as an operator runs it beside the server. */
export function tallyCommand(...args: string[]): string {
  return execFileSync('node', [path.join(root, 'server/bin/tally.mjs'), ...args], {
    env: { ...process.env, DATA_DIR: environmentDataDir() },
    encoding: 'utf8',
  });
}
