import type { ComponentProps, ReactNode } from 'react';
import { cn } from '#web/lib/cn';

interface FormProps extends Omit<ComponentProps<'form'>, 'onSubmit' | 'aria-label'> {
  /** The form's accessible name ("New todo"): screen readers and tests find the form by it. */
  label: string;
  /** Called instead of a page load, with what the form holds (controlled forms ignore it). */
  onSubmit: (data: FormData) => void;
  /** A card of its own (the todos and groups screens) rather than part of a row or a card. */
  card?: boolean;
}

/** Every form of the app: named, its fields stacked, FormActions last. */
export function Form({ label, onSubmit, card = false, className, ...form }: FormProps) {
  return (
    <form
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
      className={cn(
        'space-y-4',
        card &&
          'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ' +
            'dark:border-slate-700 dark:bg-slate-900',
        className,
      )}
      {...form}
    />
  );
}

/** The buttons under a form's fields, in a row that wraps. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap gap-3">{children}</div>;
}
