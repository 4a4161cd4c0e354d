import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AccountExportSchema, EXPORT_VERSION } from './index.js';

/**
 * contract/schemas/tally-export-v{n}.schema.json is the export's shape as a plain JSON Schema,
 * for people and tools outside Tally (docs/product.md, Import and export). It is generated from
 * AccountExportSchema: `UPDATE_SCHEMAS=1 npx vitest run --project contract` writes it again
 * (then `npx prettier --write contract/schemas`).
 */
const file = new URL(`../schemas/tally-export-v${EXPORT_VERSION}.schema.json`, import.meta.url);

const generated = (): unknown => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: `Tally export, version ${EXPORT_VERSION}`,
  ...JSON.parse(JSON.stringify(AccountExportSchema)),
});

describe('the export JSON Schema', () => {
  it('is committed as generated from AccountExportSchema', () => {
    if (process.env.UPDATE_SCHEMAS) writeFileSync(file, JSON.stringify(generated(), null, 2));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(generated());
  });
});
