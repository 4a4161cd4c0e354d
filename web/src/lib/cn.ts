import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (clsx: strings, conditionals, arrays) and lets a later Tailwind class win over
 * an earlier one of the same kind (tailwind-merge), so a caller's `className` can override a
 * component's own classes instead of fighting them in the stylesheet's order.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes));
}
