import { badRequest } from '../shared/errors.js';

/** A file's text and the encoding it was read in (docs/product.md, Import and export). */
export interface DecodedText {
  text: string;
  encoding: 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'Windows-1252';
}

const startsWith = (bytes: Uint8Array, ...prefix: number[]) =>
  prefix.every((byte, i) => bytes[i] === byte);

/**
 * Zero bytes at odd (UTF-16LE) or even (UTF-16BE) offsets in most of the first characters: text
 * in UTF-16 without a byte-order mark, as some spreadsheet programs save it.
 */
function utf16WithoutMark(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  const sample = Math.min(bytes.length - (bytes.length % 2), 512);
  if (sample < 4) return null;
  let zeroOdd = 0;
  let zeroEven = 0;
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) zeroEven += 1;
    if (bytes[i + 1] === 0) zeroOdd += 1;
  }
  const pairs = sample / 2;
  if (zeroOdd > pairs * 0.6 && zeroEven === 0) return 'UTF-16LE';
  if (zeroEven > pairs * 0.6 && zeroOdd === 0) return 'UTF-16BE';
  return null;
}

const decoders = {
  'UTF-8': (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes),
  'UTF-16LE': (bytes: Uint8Array) => new TextDecoder('utf-16le', { fatal: true }).decode(bytes),
  'UTF-16BE': (bytes: Uint8Array) => new TextDecoder('utf-16be', { fatal: true }).decode(bytes),
  // Node 24's decoder maps 0x80-0x9F to Windows-1252's punctuation (Node 20's read them as
  // Latin-1 controls, so Tally wrote the table out by hand).
  'Windows-1252': (bytes: Uint8Array) => new TextDecoder('windows-1252').decode(bytes),
} as const;

/**
 * Reads an uploaded file as text. A byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE);
 * without one, UTF-16 is recognised by its zero bytes, then UTF-8 is tried, and a file that is
 * not valid UTF-8 is read as Windows-1252, the encoding spreadsheet programs on Windows save
 * "CSV" in (every byte is a character there, so it never fails). Binary files are refused in a
 * sentence that says what they look like.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) {
    throw badRequest(
      'The file is a ZIP archive (an .xlsx workbook or a zipped backup), not CSV or JSON: unzip it, or save the sheet as CSV',
    );
  }
  let encoding: DecodedText['encoding'];
  if (startsWith(bytes, 0xef, 0xbb, 0xbf)) encoding = 'UTF-8';
  else if (startsWith(bytes, 0xff, 0xfe)) encoding = 'UTF-16LE';
  else if (startsWith(bytes, 0xfe, 0xff)) encoding = 'UTF-16BE';
  else encoding = utf16WithoutMark(bytes) ?? 'UTF-8';
  let text: string;
  try {
    // The decoders drop a byte-order mark at the start.
    text = decoders[encoding](bytes);
  } catch {
    if (encoding !== 'UTF-8' || startsWith(bytes, 0xef, 0xbb, 0xbf)) {
      throw badRequest(`The file starts as ${encoding} text but is not valid ${encoding}`);
    }
    encoding = 'Windows-1252';
    text = decoders[encoding](bytes);
  }
  if (text.includes('\u0000')) {
    throw badRequest('The file is not text (it holds NUL bytes): choose a CSV or JSON file');
  }
  return { text, encoding };
}
