import { Link } from 'wouter';
import { useDocumentTitle } from '../use-document-title';

export default function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">Page not found</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        <Link href="/" className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
          Go to your todos
        </Link>
      </p>
    </div>
  );
}
