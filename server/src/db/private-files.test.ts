import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePrivateFile } from './private-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('makePrivateFile', () => {
  it('creates a missing file owner-only, and keeps an existing one as it is, however often called', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tally-private-'));
    dirs.push(dir);
    const made = path.join(dir, 'tally.db');
    makePrivateFile(made);
    makePrivateFile(made);
    expect(readFileSync(made, 'utf8')).toBe('');
    expect(statSync(made).mode & 0o777).toBe(0o600);

    const existing = path.join(dir, 'kept.db');
    writeFileSync(existing, 'data', { mode: 0o644 });
    makePrivateFile(existing);
    expect(readFileSync(existing, 'utf8')).toBe('data');
    expect(statSync(existing).mode & 0o777).toBe(0o600);
  });
});
