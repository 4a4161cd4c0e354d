import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * Compresses answers of 1 KB or more when the client accepts it. Registered by the features whose
 * answers grow (a whole todo list, a year of daily statistics), not globally: on the many small
 * answers its hook would be pure cost. Brotli at quality 4 compresses JSON about as well as
 * gzip's default at a fraction of the CPU; gzip serves clients without brotli.
 */
export async function compressLargeAnswers(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: 1024,
    // Answers only: request bodies stay plain JSON, as everywhere else in the API.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
