import { lazy, Suspense } from 'react';
import { cn } from '#web/lib/cn';

// The Markdown parser (react-markdown + remark-gfm, ~40 KB gzipped) is its own chunk, loaded the
// first time a description is shown in full, so /todos keeps its budget
// (scripts/check-bundle-size.mjs, docs/decisions/084-markdown-descriptions.md).
const MarkdownRenderer = lazy(() => import('./MarkdownRenderer'));

type Props = { source: string; className?: string };

/**
 * A todo's description rendered as Markdown: CommonMark and GitHub's task lists, links opening in
 * a new tab, raw HTML shown as text and never run. Until the parser has loaded, the text as
 * written.
 */
export function Markdown({ source, className }: Props) {
  const classes = cn('text-sm break-words text-slate-700 dark:text-slate-300', className);
  return (
    <Suspense fallback={<p className={cn(classes, 'whitespace-pre-line')}>{source}</p>}>
      <MarkdownRenderer source={source} className={classes} />
    </Suspense>
  );
}
