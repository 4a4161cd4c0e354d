import { parse } from 'csv-parse/sync';
import type { ImportSkip } from '@tally/contract';

/** One record of a CSV file and the line it starts on. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * Reads CSV text (RFC 4180, as the sources write it) record by record with csv-parse. Line
 * breaks are made \n first, so a record's first line is its last line less the breaks inside its
 * cells. Lenient where the sources are: stray quotes inside a cell and rows of a different length
 * are kept (the formats check their columns); a record that cannot be read at all (a quote never
 * closed) is skipped and reported with its line.
 */
export function readCsv(text: string): { rows: CsvRow[]; skipped: ImportSkip[] } {
  const skipped: ImportSkip[] = [];
  const records = parse(text.replace(/\r\n?/g, '\n'), {
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
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const rows = records.map(({ record, info }) => ({
    line: info.lines - (record.join('').match(/\n/g)?.length ?? 0),
    cells: record,
  }));
  return { rows, skipped };
}
