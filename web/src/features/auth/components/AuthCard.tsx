import type { ReactNode } from 'react';
import { Link } from 'wouter';

/** A link inside the cards' text. */
export const authLinkClass =
  'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

/** The centred card that holds the login and register forms. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-sm px-4 py-10 sm:py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <h1 className="mb-6 text-2xl font-semibold text-slate-900 dark:text-slate-100">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** The line under each form that leads to the other one ("Don't have an account? Register"). */
export function AuthSwitchLink({
  question,
  href,
  label,
}: {
  question: string;
  href: string;
  label: string;
}) {
  return (
    <p className="mt-6 text-center text-sm text-slate-700 dark:text-slate-300">
      {question}{' '}
      <Link href={href} className={authLinkClass}>
        {label}
      </Link>
    </p>
  );
}

/** A paragraph of explanation in a card. */
export function AuthText({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-700 dark:text-slate-300">{children}</p>;
}
