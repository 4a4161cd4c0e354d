import { lazy, Suspense, useEffect, useRef, useState, type Ref } from 'react';
import {
  type CsvMappingField,
  IMPORT_MAX_BYTES,
  type ImportFormat,
} from '@tally/contract/constants';
import type { ImportReport } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { formatTime, relativeDay } from '#web/lib/date-format';
import { daysAgo } from '#web/lib/format';
import { SelectField, TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { useImportFile } from '../api/import-file';
import {
  FORMAT_CHOICES,
  alreadyText,
  repeatText,
  reportHeadline,
  skippedHeading,
  warningsHeading,
} from '../lib/import-text';
import { RowList } from './ImportRowList';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);
const cellClass = 'px-1.5 py-1.5 text-start align-top sm:px-2';

/** A report: what would be (preview) or was imported, the first todos, skipped rows. */
function Report({
  report,
  headingRef,
}: {
  report: ImportReport;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const more = (shown: number, count: number) =>
    count > shown ? [{ where: '…', text: `and ${(count - shown).toLocaleString('en')} more` }] : [];
  const today = daysAgo(0);
  return (
    <div className="space-y-4 rounded-md border border-slate-200 p-3 sm:p-4 dark:border-slate-700">
      {/* Focused when it appears (tabIndex -1: by script only), so the reader lands on it. */}
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 outline-none dark:text-slate-100"
      >
        {report.dryRun ? 'Preview' : 'Import report'}
      </h3>
      <p className="text-sm text-slate-800 dark:text-slate-200">{reportHeadline(report)}</p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Read as {report.encoding}.
        {report.todos.alreadyImported > 0 ? ` ${alreadyText(report)}` : ''}
      </p>
      {report.groups.length > 0 ? (
        <RowList
          heading="Groups"
          rows={report.groups.map((group) => ({
            where: group.name,
            text: `${group.existing ? 'already yours' : 'new'}, ${group.todos.toLocaleString('en')} ${group.todos === 1 ? 'todo' : 'todos'}`,
          }))}
        />
      ) : null}
      {report.preview.length > 0 ? (
        // Scrolls sideways only when a title is too long to break; reachable by keyboard then.
        <div
          className="overflow-x-auto"
          tabIndex={0}
          role="region"
          aria-label="The todos, scrollable"
        >
          <table className="w-full border-collapse text-sm">
            <caption className="mb-1 text-start text-sm font-semibold text-slate-900 dark:text-slate-100">
              {report.todos.created > report.preview.length
                ? `The first ${report.preview.length} of ${report.todos.created.toLocaleString('en')} todos`
                : 'The todos'}
            </caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                <th scope="col" className={cellClass}>
                  Title
                </th>
                <th scope="col" className={cellClass}>
                  Group
                </th>
                <th scope="col" className={cellClass}>
                  Due
                </th>
                <th scope="col" className={cellClass}>
                  Repeats
                </th>
                <th scope="col" className={cellClass}>
                  Done
                </th>
              </tr>
            </thead>
            <tbody>
              {report.preview.map((todo, index) => (
                <tr key={index} className="border-b border-slate-200 dark:border-slate-700">
                  <td className={`${cellClass} break-words`}>{todo.title}</td>
                  <td className={cellClass}>{todo.group ?? '—'}</td>
                  <td className={cellClass}>
                    <span className="whitespace-nowrap">
                      {todo.dueDate ? relativeDay(todo.dueDate, today) : '—'}
                    </span>
                    {todo.dueTime ? (
                      <span className="block"> {formatTime(todo.dueTime)}</span>
                    ) : null}
                  </td>
                  <td className={cellClass}>{todo.repeat ? repeatText(todo.repeat) : '—'}</td>
                  <td className={cellClass}>{todo.completed ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {report.skippedCount > 0 ? (
        <RowList
          heading={skippedHeading(report)}
          rows={[
            ...report.skipped.map((row) => ({ where: row.where, text: row.reason })),
            ...more(report.skipped.length, report.skippedCount),
          ]}
        />
      ) : null}
      {report.warningCount > 0 ? (
        <RowList
          heading={warningsHeading(report)}
          rows={[
            ...report.warnings.map((row) => ({ where: row.where, text: row.message })),
            ...more(report.warnings.length, report.warningCount),
          ]}
        />
      ) : null}
    </div>
  );
}

type Mapping = Partial<Record<CsvMappingField, string>>;

/** Loaded when first shown (a CSV's columns, the history), not with Settings. */
const ColumnStep = lazy(() => import('./ImportColumnStep'));
const ImportHistory = lazy(() => import('./ImportHistory'));

/**
 * Import: choose a format and a file, see the preview (nothing changes), then import it and see
 * the report (docs/product.md, Settings screen).
 */
export function ImportSection() {
  const importFile = useImportFile();
  const [format, setFormat] = useState<ImportFormat>('tally-json');
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [mapping, setMapping] = useState<Mapping | undefined>(undefined);
  const [status, setStatus] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // What is wrong with the file, beside the file field: too large, or refused by the server.
  const problem = tooLarge ?? fieldErrorOf(importFile.error, 'file');
  const accept = FORMAT_CHOICES.find((choice) => choice.value === format)?.accept;

  // A new preview or report: take the reader to it.
  useEffect(() => {
    if (report) headingRef.current?.focus();
  }, [report]);

  const startOver = () => {
    setReport(null);
    setMapping(undefined);
    setStatus(null);
    setTooLarge(null);
    importFile.reset();
  };

  const run = (dryRun: boolean, chosen = mapping) => {
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) {
      setTooLarge(`The file is larger than ${MAX_MB} MB.`);
      return;
    }
    setStatus(null);
    importFile.mutate(
      { file, format, dryRun, ...(format === 'csv' && chosen ? { mapping: chosen } : {}) },
      {
        onSuccess: (answer) => {
          setReport(answer);
          setStatus(answer.dryRun ? null : `${reportHeadline(answer)} (from ${file.name})`);
        },
      },
    );
  };

  const pending = importFile.isPending;
  const previewing = pending && importFile.variables?.dryRun === true;
  const importing = pending && importFile.variables?.dryRun === false;
  const canImport =
    report?.dryRun === true &&
    (report.todos.created > 0 || report.groups.some((group) => !group.existing));

  return (
    <SettingsSection title="Import" status={status}>
      <Hint>
        Bring in todos and groups from a Tally export (JSON or CSV), a Todoist project exported as a
        CSV template, a TickTick backup (CSV), Google Tasks (Takeout), a Vikunja export, an
        iCalendar file of tasks or any CSV, up to {MAX_MB} MB. You see what would come in before
        anything changes; importing the same file again adds nothing, and an import can be undone.
      </Hint>
      <Form label="Import" onSubmit={() => run(true)}>
        <SelectField
          label="Format"
          name="format"
          value={format}
          onChange={(event) => {
            setFormat(event.target.value as ImportFormat);
            startOver();
          }}
        >
          {FORMAT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="File"
          name="file"
          type="file"
          accept={accept}
          // Preview waits for a file, so the form needs no `required` check of its own.
          aria-required="true"
          error={problem}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            startOver();
          }}
        />
        <FormActions>
          <Button type="submit" variant="secondary" disabled={!file || pending}>
            {previewing ? 'Reading file...' : 'Preview'}
          </Button>
        </FormActions>
      </Form>
      {report?.dryRun && report.columns ? (
        <Suspense fallback={null}>
          <ColumnStep
            columns={report.columns}
            disabled={pending}
            onChange={(chosen) => {
              setMapping(chosen);
              run(true, chosen);
            }}
          />
        </Suspense>
      ) : null}
      {report ? <Report report={report} headingRef={headingRef} /> : null}
      {report?.dryRun ? (
        <FormActions>
          <Button onClick={() => run(false)} disabled={!canImport || pending}>
            {importing
              ? 'Importing...'
              : `Import ${report.todos.created.toLocaleString('en')} ${report.todos.created === 1 ? 'todo' : 'todos'}`}
          </Button>
          <Button variant="secondary" onClick={startOver} disabled={pending}>
            Cancel
          </Button>
        </FormActions>
      ) : null}
      <Suspense fallback={null}>
        <ImportHistory onUndone={setStatus} />
      </Suspense>
    </SettingsSection>
  );
}
