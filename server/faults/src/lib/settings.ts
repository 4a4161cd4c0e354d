// The harness's settings, read once from the environment (docs/reliability.md lists them).
import { fileURLToPath } from 'node:url';

/** The repository root; this file sits at server/faults/src/lib (and dist/lib once compiled). */
export const root = fileURLToPath(new URL('../../../../', import.meta.url));

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export const KILLS = positive('FAULT_KILLS', 20);
export const SOAK_SECONDS = positive('SOAK_SECONDS', 600);
export const SOAK_RATE = positive('SOAK_RATE', 40);
export const PG_ADMIN = process.env.FAULT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const KINDS = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof KINDS)[number];
const isKind = (name: string): name is DatabaseKind => (KINDS as readonly string[]).includes(name);

const named = (process.env.FAULT_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
const unknownKinds = named.filter((name) => !isKind(name));
// Any other name would silently run as PostgreSQL under the wrong label.
if (unknownKinds.length > 0)
  throw new Error(`FAULT_DATABASES: unknown ${unknownKinds.join(', ')} (sqlite, postgres)`);
export const DATABASES: readonly DatabaseKind[] = named.filter(isKind);
