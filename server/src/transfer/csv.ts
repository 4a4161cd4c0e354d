import { Readable } from 'node:stream';
import type { ImportSkip } from '@tally/contract';
import { onFirstUse } from '../shared/on-first-use.js';
import { timeSlicer } from '../shared/time-slices.js';

/** csv-parse, loaded at the first CSV import, not at start (docs/decisions/097-modules-on-first-use.md). */
const loadCsvParse = onFirstUse(() => import('csv-parse'));

/** One record of a CSV file and the line it starts on. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** Characters handed to the parser at a time: records come out as the text goes in. */
const SLICE = 64 * 1024;

/**
 * The text in slices with its line breaks made \n. A \r that ends a slice waits for the next (a
 * \n may follow it), as does the first half of a surrogate pair (each slice becomes UTF-8 alone).
 */
function* normalisedSlices(text: string): Generator<string> {
  let carried = '';
  for (let start = 0; start < text.length; start += SLICE) {
    let slice = carried + text.slice(start, start + SLICE);
    carried = '';
    const last = slice.charCodeAt(slice.length - 1);
    if (start + SLICE < text.length && (last === 0x0d || (last >= 0xd800 && last <= 0xdbff))) {
      carried = slice.slice(-1);
      slice = slice.slice(0, -1);
    }
    yield slice.replace(/\r\n?/g, '\n');
  }
}

/**
 * Reads CSV text (RFC 4180, as the sources write it) record by record with csv-parse's stream,
 * so a reader that stops (at the import's limit of todos) stops the parse there, and never holds
 * more than a few records it has not read: a 10 MB file costs no more memory than the rows
 * taken. Every 10 ms of work the event loop gets a turn (shared/time-slices.ts). Line breaks are
 * made \n first, so a record's first line is its last line less the breaks inside its cells.
 * Lenient where the sources are: stray quotes inside a cell and rows of a different length are
 * kept (the formats check their columns); a record that cannot be read at all (a quote never
 * closed) is added to `skipped` with its line.
 */
export async function* readCsv(text: string, skipped: ImportSkip[]): AsyncGenerator<CsvRow> {
  const { parse } = await loadCsvParse();
  const parser = parse({
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      const line = typeof error?.lines === 'number' ? error.lines : null;
      const problem =
        error?.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quote is never closed' : 'it is not valid CSV';
      skipped.push({
        line,
        where: line === null ? 'a row' : `line ${line}`,
        reason: `The row cannot be read: ${problem}`,
      });
      return undefined;
    },
  });
  const input = Readable.from(normalisedSlices(text), { objectMode: false });
  input.pipe(parser);
  const pause = timeSlicer();
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      yield {
        line: info.lines - (record.join('').match(/\n/g)?.length ?? 0),
        cells: record,
      };
      await pause();
    }
  } finally {
    input.destroy();
    parser.destroy();
  }
}
