import { useId } from 'react';

/** The rows of a report that were skipped, or imported with a change, by line. */
export function RowList({
  heading,
  rows,
}: {
  heading: string;
  rows: { where: string; text: string }[];
}) {
  const headingId = useId();
  return (
    <div>
      <h4 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        {heading}
      </h4>
      <ul aria-labelledby={headingId} className="mt-1 list-disc space-y-0.5 ps-5 text-sm">
        {rows.map((row, index) => (
          <li key={index}>
            <span className="font-medium">{row.where[0]?.toUpperCase() + row.where.slice(1)}</span>:{' '}
            {row.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
