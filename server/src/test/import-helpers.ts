import { readFileSync } from 'node:fs';
import type { ImportReport } from '@tally/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestUser } from './helpers.js';

/** The sample files in ./fixtures (SOURCES.md there says which are genuine exports and which are made). */
export const fixture = (name: string) =>
  readFileSync(new URL(`../transfer/fixtures/${name}`, import.meta.url));

/** A multipart/form-data body as a browser sends it, built by the platform's own FormData. */
export async function formBody(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name?: string; field?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    form.append(file.field ?? 'file', new Blob([file.bytes]), file.name ?? 'upload.csv');
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

/** POST /api/import as the user, in Europe/Berlin. */
export async function importFile(
  app: FastifyInstance,
  user: Pick<TestUser, 'token'>,
  bytes: Uint8Array | string,
  format: string,
  dryRun = false,
): Promise<LightMyRequestResponse> {
  const { payload, headers } = await formBody(
    { format, dryRun: String(dryRun) },
    { bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes },
  );
  return app.inject({
    method: 'POST',
    url: '/api/import',
    payload,
    headers: { ...headers, authorization: `Bearer ${user.token}`, 'x-time-zone': 'Europe/Berlin' },
  });
}

/** importFile that must succeed: its report. */
export async function imported(...args: Parameters<typeof importFile>): Promise<ImportReport> {
  const response = await importFile(...args);
  if (response.statusCode !== 200) {
    throw new Error(`import answered ${response.statusCode}: ${response.body}`);
  }
  return response.json<ImportReport>();
}
