import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useDocumentTitle } from '../use-document-title';

export default function NotFoundRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Page not found`);
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Page not found</Trans>
      </h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        <Link href="/" className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
          <Trans>Go to your todos</Trans>
        </Link>
      </p>
    </div>
  );
}
