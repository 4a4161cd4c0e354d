import type { ButtonHTMLAttributes, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'ghostDanger';

const base =
  'inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm ' +
  'font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 disabled:hover:bg-blue-700',
  secondary:
    'border border-slate-400 bg-white text-slate-800 hover:bg-slate-100 ' +
    'dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:hover:bg-red-700',
  ghost:
    'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 ' +
    'min-h-9 px-2.5 py-1.5 sm:px-3',
  ghostDanger:
    'text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-slate-800 ' +
    'min-h-9 px-2.5 py-1.5 sm:px-3',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  ref?: Ref<HTMLButtonElement>;
}

export function buttonClass(variant: ButtonVariant = 'primary', extra = ''): string {
  return `${base} ${variants[variant]} ${extra}`.trim();
}

/** A button that is type="button" unless told otherwise, so it never submits by accident. */
export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonProps) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
