import type { Kysely } from 'kysely';

/**
 * The ETag of a stored answer (docs/decisions/117-every-write-carries-its-version.md): a retry with the
 * same Idempotency-Key is answered the first answer's ETag too, the If-Match of its next write.
 * Null for an answer that had none.
 */
export function idempotencyEtags() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('idempotency_keys').addColumn('etag', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('idempotency_keys').dropColumn('etag').execute();
    },
  };
}
