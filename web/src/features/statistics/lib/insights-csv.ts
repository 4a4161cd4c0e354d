import { saveTextFile } from '#web/lib/save-file';
import type { Insights } from '@tally/contract';
import { WEEKDAYS } from '@tally/contract/dates';
import { WEEKDAY_NAMES } from '#web/lib/date-format';

/**
 * The Insights section's CSV files (docs/product.md, Statistics screen, Insights): one per chart
 * and one of the figures, made in the browser from the answer the section shows, so a file says
 * exactly what the screen says. RFC 4180: comma-separated, CRLF line ends, a header line, fields
 * quoted when they hold a comma, a quote or a line break.
 */

type Cell = string | number | null;

/**
 * A field as a spreadsheet will read it. A group name is the user's own text: one that starts
 * like a formula (=, +, -, @, tab, carriage return) gets a leading apostrophe, so opening the file
 * in a spreadsheet never runs it (OWASP, CSV injection).
 */
function field(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(field).join(',') + '\r\n').join('');
}

export interface CsvFile {
  name: string;
  text: string;
}

/** Every day of the answer's heatmap, oldest first, as the API lists them: date,completed. */
export const heatmapCsv = (insights: Insights): CsvFile => ({
  name: `tally-completions-per-day-${insights.to}.csv`,
  text: toCsv(
    ['date', 'completed'],
    insights.heatmap.map((day) => [day.date, day.completed]),
  ),
});

/** A file's weekday names stay English, like its column names, for the programs that read it. */
const weekdayName = (index: number) => {
  const day = WEEKDAYS[index];
  return day ? WEEKDAY_NAMES[day] : String(index);
};

export const weekdayCsv = (insights: Insights): CsvFile => ({
  name: `tally-completions-by-weekday-${insights.to}.csv`,
  text: toCsv(
    ['weekday', 'completed'],
    insights.byWeekday.map((completed, index) => [weekdayName(index), completed]),
  ),
});

/** hour: 0-23, local time. */
export const hourCsv = (insights: Insights): CsvFile => ({
  name: `tally-completions-by-hour-${insights.to}.csv`,
  text: toCsv(
    ['hour', 'completed'],
    insights.byHour.map((completed, hour) => [hour, completed]),
  ),
});

/** group_id and color are empty for "No Group". */
export const groupCsv = (insights: Insights): CsvFile => ({
  name: `tally-completions-by-group-${insights.to}.csv`,
  text: toCsv(
    ['group_id', 'group', 'color', 'completed'],
    insights.byGroup.map((group) => [group.groupId, group.name, group.color, group.completed]),
  ),
});

/** By the completed todos' tags: one completion counts for each tag of its todo. */
export const tagCsv = (insights: Insights): CsvFile => ({
  name: `tally-completions-by-tag-${insights.to}.csv`,
  text: toCsv(
    ['tag', 'color', 'completed'],
    insights.byTag.map((tag) => [tag.name, tag.color, tag.completed]),
  ),
});

/** The figures above the charts, one per line; an unmeasured one (no sample) is empty. */
export const figuresCsv = (insights: Insights): CsvFile => ({
  name: `tally-insights-${insights.to}.csv`,
  text: toCsv(
    ['figure', 'value'],
    [
      ['from', insights.from],
      ['to', insights.to],
      ['current_streak_days', insights.streak.current],
      ['longest_streak_days', insights.streak.longest],
      ['last_day_with_completion', insights.streak.lastDay],
      ['median_hours_to_complete', insights.leadTime.medianHours],
      ['p75_hours_to_complete', insights.leadTime.p75Hours],
      ['completions_measured', insights.leadTime.sample],
      ['completed_on_time', insights.onTime.onTime],
      ['completed_late', insights.onTime.late],
      ['on_time_rate', insights.onTime.rate],
      ['completed_this_week', insights.week.thisWeek],
      ['completed_last_week', insights.week.lastWeek],
    ],
  ),
});

/** Has the browser save `file` (a download, not a new page). */
export function saveCsvFile(file: CsvFile): void {
  saveTextFile(file.text, file.name, 'text/csv;charset=utf-8');
}
