import type { ButtonHTMLAttributes, Ref } from 'react';
import { cn } from '#web/lib/cn';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium ' +
  'transition-colors disabled:cursor-not-allowed disabled:opacity-60';

/** Colours by intent. Hover only while enabled, so a disabled button does not look pressable. */
const variants = {
  primary: 'bg-blue-700 text-white enabled:hover:bg-blue-800',
  /** Bordered, for a second choice beside a primary one (raised on dark cards). */
  secondary:
    'border border-slate-400 bg-white text-slate-800 enabled:hover:bg-slate-100 ' +
    'dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100 dark:enabled:hover:bg-slate-700',
  danger: 'bg-red-700 text-white enabled:hover:bg-red-800',
  ghost:
    'text-slate-700 enabled:hover:bg-slate-100 dark:text-slate-200 dark:enabled:hover:bg-slate-800',
  ghostDanger:
    'text-red-700 enabled:hover:bg-red-50 dark:text-red-300 dark:enabled:hover:bg-slate-800',
  /** Bordered in the page's own colours: Logout, and the choices of a tab list or a switch. */
  outline:
    'border border-slate-400 bg-white text-slate-800 enabled:hover:bg-slate-100 ' +
    'dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:enabled:hover:bg-slate-800',
  /** The chosen one among outline buttons (the active filter tab, the shown range). */
  selected:
    'border border-blue-700 bg-blue-700 text-white ' +
    'dark:border-blue-300 dark:bg-blue-300 dark:text-slate-950',
  /** Underlined text in the surrounding colour, for an action inside a message (Retry). */
  link: 'font-semibold underline underline-offset-2',
  /** No colours of its own: it takes the surrounding text colour (a message's ×). */
  bare: '',
} as const;

const sizes = {
  md: 'min-h-10 px-4 py-2',
  sm: 'min-h-9 px-3 py-1.5',
  /** Narrower on phones, where it sits beside a list row's text. */
  compact: 'min-h-9 px-2.5 py-1.5 sm:px-3',
  icon: 'h-9 w-9',
  /** No box of its own, for link and bare buttons that sit in a line of text. */
  none: '',
} as const;

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * Every button of the app. It is type="button" unless told otherwise, so it never submits by
 * accident; `className` is merged last, so a caller's layout classes win over the variant's.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(base, variants[variant], sizes[size], className)}
      {...props}
    />
  );
}
