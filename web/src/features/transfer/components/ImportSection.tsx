import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { repeatRule } from '#web/lib/repeat-words';
import { SelectField, TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { useImportFile } from '../api/import-file';
import {
  FORMAT_CHOICES,
  alreadyText,
  reportHeadline,
  skippedHeading,
  todoCount,
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
  const { t } = useLingui();
  const more = (shown: number, count: number) => {
    const rest = count - shown;
    return rest > 0 ? [{ where: '…', text: t`and ${rest} more` }] : [];
  };
  const today = daysAgo(0);
  const { encoding } = report;
  const first = report.preview.length;
  const created = report.todos.created;
  return (
    <div className="space-y-4 rounded-md border border-slate-200 p-3 sm:p-4 dark:border-slate-700">
      {/* Focused when it appears (tabIndex -1: by script only), so the reader lands on it. */}
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 outline-none dark:text-slate-100"
      >
        {report.dryRun ? t`Preview` : t`Import report`}
      </h3>
      <p className="text-sm text-slate-800 dark:text-slate-200">{reportHeadline(report)}</p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Trans>Read as {encoding}.</Trans>
        {report.todos.alreadyImported > 0 ? ` ${alreadyText(report)}` : ''}
      </p>
      {report.groups.length > 0 ? (
        <RowList
          heading={t`Groups`}
          rows={report.groups.map((group) => {
            const todos = todoCount(group.todos);
            return {
              where: group.name,
              text: group.existing ? t`already yours, ${todos}` : t`new, ${todos}`,
            };
          })}
        />
      ) : null}
      {report.preview.length > 0 ? (
        // Scrolls sideways only when a title is too long to break; reachable by keyboard then.
        <div
          className="overflow-x-auto"
          tabIndex={0}
          role="region"
          aria-label={t`The todos, scrollable`}
        >
          <table className="w-full border-collapse text-sm">
            <caption className="mb-1 text-start text-sm font-semibold text-slate-900 dark:text-slate-100">
              {created > first
                ? plural(created, {
                    one: `The first ${first} of # todo`,
                    other: `The first ${first} of # todos`,
                  })
                : t`The todos`}
            </caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                <th scope="col" className={cellClass}>
                  <Trans>Title</Trans>
                </th>
                <th scope="col" className={cellClass}>
                  <Trans>Group</Trans>
                </th>
                <th scope="col" className={cellClass}>
                  <Trans>Due</Trans>
                </th>
                <th scope="col" className={cellClass}>
                  <Trans>Repeats</Trans>
                </th>
                <th scope="col" className={cellClass}>
                  <Trans>Done</Trans>
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
                  <td className={cellClass}>
                    {todo.repeat ? repeatRule(todo.repeat, todo.dueDate) : '—'}
                  </td>
                  <td className={cellClass}>{todo.completed ? t`Yes` : t`No`}</td>
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
  const { t, i18n } = useLingui();
  const maxMb = MAX_MB;
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
      setTooLarge(t`The file is larger than ${MAX_MB} MB.`);
      return;
    }
    setStatus(null);
    importFile.mutate(
      { file, format, dryRun, ...(format === 'csv' && chosen ? { mapping: chosen } : {}) },
      {
        onSuccess: (answer) => {
          setReport(answer);
          const headline = reportHeadline(answer);
          const { name } = file;
          setStatus(answer.dryRun ? null : t`${headline} (from ${name})`);
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
    <SettingsSection title={t`Import`} status={status}>
      <Hint>
        <Trans>
          Bring in todos and groups from a Tally export (JSON or CSV), a Todoist project exported as
          a CSV template, a TickTick backup (CSV), Google Tasks (Takeout), a Vikunja export, an
          iCalendar file of tasks or any CSV, up to {maxMb} MB. You see what would come in before
          anything changes; importing the same file again adds nothing, and an import can be undone.
        </Trans>
      </Hint>
      <Form label={t`Import`} onSubmit={() => run(true)}>
        <SelectField
          label={t`Format`}
          name="format"
          value={format}
          onChange={(event) => {
            setFormat(event.target.value as ImportFormat);
            startOver();
          }}
        >
          {FORMAT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {i18n._(choice.label)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t`File`}
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
            {previewing ? t`Reading file...` : t`Preview`}
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
              ? t`Importing...`
              : plural(report.todos.created, { one: 'Import # todo', other: 'Import # todos' })}
          </Button>
          <Button variant="secondary" onClick={startOver} disabled={pending}>
            <Trans>Cancel</Trans>
          </Button>
        </FormActions>
      ) : null}
      <Suspense fallback={null}>
        <ImportHistory onUndone={setStatus} />
      </Suspense>
    </SettingsSection>
  );
}
