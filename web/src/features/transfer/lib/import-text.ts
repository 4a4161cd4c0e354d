import type { ImportFormat, ImportReport, Repeat } from '@tally/contract';

/** The formats in the Format list, with what each file is (docs/product.md, Settings screen). */
export const FORMAT_CHOICES: { value: ImportFormat; label: string; accept: string }[] = [
  { value: 'tally-json', label: 'Tally export (JSON)', accept: '.json,application/json' },
  { value: 'tally-csv', label: 'Tally export (CSV)', accept: '.csv,text/csv' },
  { value: 'todoist-csv', label: 'Todoist project (CSV template)', accept: '.csv,text/csv' },
  { value: 'ticktick-csv', label: 'TickTick backup (CSV)', accept: '.csv,text/csv' },
  {
    value: 'google-tasks-json',
    label: 'Google Tasks (Takeout JSON)',
    accept: '.json,application/json',
  },
  { value: 'vikunja-zip', label: 'Vikunja export (ZIP)', accept: '.zip,application/zip' },
  { value: 'ics', label: 'iCalendar tasks (.ics)', accept: '.ics,text/calendar' },
  { value: 'csv', label: 'Any CSV (choose the columns)', accept: '.csv,text/csv' },
];

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const DAYS = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const NTH: Record<number, string> = {
  1: '1st',
  2: '2nd',
  3: '3rd',
  4: '4th',
  5: '5th',
  [-1]: 'last',
};

/** A repeat in a few words, as the CSV export says it: "every 2 weeks on Mon, Thu". */
export function repeatText(repeat: Repeat): string {
  let text = repeat.every === 1 ? `every ${repeat.unit}` : `every ${repeat.every} ${repeat.unit}s`;
  if (repeat.weekdays?.length) text += ` on ${repeat.weekdays.map((d) => DAYS[d]).join(', ')}`;
  if (repeat.nthWeekday) {
    text += ` on the ${NTH[repeat.nthWeekday.n] ?? ''} ${DAYS[repeat.nthWeekday.weekday]}`;
  } else if (repeat.unit === 'month' && repeat.monthDay !== undefined) {
    text += ` on day ${repeat.monthDay}`;
  }
  if (repeat.from === 'completion') text += ', from completion';
  return text;
}

/** "12 todos (3 completed, 5 with a due date, 2 repeating)". */
function todosSummary(todos: ImportReport['todos']): string {
  const parts = [
    todos.completed > 0 ? `${todos.completed.toLocaleString('en')} completed` : null,
    todos.withDueDate > 0 ? `${todos.withDueDate.toLocaleString('en')} with a due date` : null,
    todos.repeating > 0 ? `${todos.repeating.toLocaleString('en')} repeating` : null,
  ].filter((part) => part !== null);
  const details = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return `${plural(todos.created, 'todo')}${details}`;
}

/** What the preview says will happen, or the report what did. */
export function reportHeadline(report: ImportReport): string {
  const newGroups = report.groups.filter((group) => !group.existing).length;
  const groups = newGroups > 0 ? ` and ${plural(newGroups, 'new group')}` : '';
  if (report.dryRun) {
    return report.todos.created === 0 && newGroups === 0
      ? 'Nothing new to import.'
      : `Ready to import ${todosSummary(report.todos)}${groups}.`;
  }
  return `Imported ${todosSummary(report.todos)}${groups}.`;
}

export const skippedHeading = (report: ImportReport) =>
  `Skipped: ${plural(report.skippedCount, 'row')}`;
export const warningsHeading = (report: ImportReport) =>
  `Imported with changes: ${plural(report.warningCount, 'row')}`;
export const alreadyText = (report: ImportReport) =>
  `${plural(report.todos.alreadyImported, 'todo')} of this file ${report.todos.alreadyImported === 1 ? 'is' : 'are'} already here (imported before) and ${report.todos.alreadyImported === 1 ? 'is' : 'are'} left out.`;
