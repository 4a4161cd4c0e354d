import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '#web/components/Button';
import { cn } from '#web/lib/cn';
import { saveCsvFile, type CsvFile } from '../lib/insights-csv';

interface ChartCardProps {
  /** The heading, e.g. "Completions by weekday"; it also names the card's buttons. */
  title: string;
  /** A line under the heading. */
  summary?: string;
  /** The chart's CSV, made when the button is pressed. */
  csv: () => CsvFile;
  /** The chart's data as a table: shown instead of the chart on "Show as table". */
  table: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * A card holding one chart of the Insights section, named by its heading, with "Show as table"
 * (the chart's text alternative; "Show as chart" goes back) and "Download CSV". The buttons'
 * names go on with the chart's name ("Download CSV of completions by weekday"), so that a list of
 * the page's buttons tells them apart; they begin with the visible words (WCAG 2.5.3).
 */
export function ChartCard({ title, summary, csv, table, children, className }: ChartCardProps) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  const { t } = useLingui();
  const lowerTitle = title.charAt(0).toLowerCase() + title.slice(1);
  const toggle = asTable ? t`Show as chart` : t`Show as table`;
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        'min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm',
        'dark:border-slate-700 dark:bg-slate-900',
        className,
      )}
    >
      <div className="mb-3 flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold text-slate-900 dark:text-slate-100">
            {title}
          </h3>
          {summary && <p className="text-sm text-slate-600 dark:text-slate-400">{summary}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-label={asTable ? t`Show as chart: ${lowerTitle}` : t`Show as table: ${lowerTitle}`}
            onClick={() => setAsTable((shown) => !shown)}
          >
            {toggle}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-label={t`Download CSV of ${lowerTitle}`}
            onClick={() => saveCsvFile(csv())}
          >
            <Trans>Download CSV</Trans>
          </Button>
        </div>
      </div>
      {asTable ? table : children}
    </section>
  );
}
