import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn';

interface DataTableProps {
  caption: string;
  headers: readonly string[];
  rows: readonly (readonly ReactNode[])[];
  /** Long tables (a year of days) scroll inside a focusable region ("{caption}, table"). */
  scroll?: boolean;
}

/** A chart's data as a plain table: its text alternative (the first column names each row). */
export function DataTable({ caption, headers, rows, scroll = false }: DataTableProps) {
  const { t } = useLingui();
  const table = (
    <table className="w-full border-collapse text-start text-sm text-slate-800 dark:text-slate-200">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 dark:border-slate-600">
          {headers.map((header, index) => (
            <th
              key={header}
              scope="col"
              className={cn(
                'bg-white py-1.5 pe-4 font-medium dark:bg-slate-900',
                // The header stays in view while a long table scrolls in its own box.
                scroll && 'sticky top-0',
                index > 0 && 'text-end',
              )}
            >
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, rowIndex) => (
          <tr key={rowIndex} className="border-b border-slate-100 dark:border-slate-800">
            {row.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row" className="py-1 pe-4 font-normal">
                  {cell}
                </th>
              ) : (
                <td key={index} className="py-1 pe-4 text-end tabular-nums">
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (!scroll) return table;
  return (
    <div
      role="region"
      aria-label={t`${caption}, table`}
      tabIndex={0}
      className="max-h-80 overflow-y-auto rounded-md"
    >
      {table}
    </div>
  );
}
