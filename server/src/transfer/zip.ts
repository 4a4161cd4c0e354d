import { IMPORT_MAX_BYTES } from '@tally/contract';
import type { Entry, ZipFile } from 'yauzl';
import { badRequest } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';

/** yauzl, loaded at the first archive imported, not at start (docs/decisions/097-modules-on-first-use.md). */
const loadYauzl = onFirstUse(() => import('yauzl'));

const MB = IMPORT_MAX_BYTES / (1024 * 1024);
/** Entries read from the central directory before the one wanted must be among them. */
const ENTRIES_MAX = 100_000;

/**
 * The bytes of one file of a ZIP archive (Vikunja's export: data.json), read with yauzl from
 * memory. What an archive may hold is bounded before and while it is inflated: an entry that
 * says it is larger than IMPORT_MAX_BYTES is refused unread, and the inflating stops as soon as
 * it yields more than that (yauzl also refuses an entry whose size differs from what it says), so
 * a small archive that would inflate to gigabytes costs no more than IMPORT_MAX_BYTES. Encrypted
 * entries, archives of more than ENTRIES_MAX entries and archives that are not ZIP are refused
 * in a sentence.
 */
export async function readZipEntry(bytes: Uint8Array, name: string): Promise<Uint8Array> {
  const yauzl = await loadYauzl();
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true },
      (error, file) => {
        if (error || !file) {
          reject(
            badRequest(
              `The file is not a ZIP archive that can be read (${error?.message ?? 'empty'})`,
            ),
          );
        } else resolve(file);
      },
    );
  });
  try {
    const entry = await findEntry(zip, name);
    if (entry.isEncrypted()) throw badRequest(`${name} in the archive is encrypted`);
    if (entry.uncompressedSize > IMPORT_MAX_BYTES) {
      throw badRequest(`${name} in the archive is larger than ${MB} MB once unpacked`);
    }
    return await inflate(zip, entry, name);
  } finally {
    zip.close();
  }
}

function findEntry(zip: ZipFile, name: string): Promise<Entry> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    zip.on('entry', (entry: Entry) => {
      seen += 1;
      if (entry.fileName === name) resolve(entry);
      else if (seen >= ENTRIES_MAX) {
        reject(badRequest(`The archive holds more than ${ENTRIES_MAX.toLocaleString('en')} files`));
      } else zip.readEntry();
    });
    zip.on('end', () => reject(badRequest(`The archive holds no ${name}`)));
    zip.on('error', (error: Error) =>
      reject(badRequest(`The archive cannot be read: ${error.message}`)),
    );
    zip.readEntry();
  });
}

function inflate(zip: ZipFile, entry: Entry, name: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(badRequest(`${name} in the archive cannot be read: ${error?.message ?? 'no data'}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > IMPORT_MAX_BYTES) {
          stream.destroy();
          reject(badRequest(`${name} in the archive is larger than ${MB} MB once unpacked`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (streamError: Error) =>
        reject(
          badRequest(
            // yauzl's check of the size an entry claims: a damaged or hostile archive.
            /too many bytes/.test(streamError.message)
              ? `${name} in the archive unpacks to more than the archive says: it is damaged or not a genuine export`
              : `${name} in the archive cannot be read: ${streamError.message}`,
          ),
        ),
      );
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
