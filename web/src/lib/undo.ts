import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import type { Operation } from './api-error';
import { reportMutationError } from './mutation-errors';

/**
 * The Undo toast's store (docs/product.md, Undo): after a delete, a completion, a group change
 * or a bulk action, the screen offers to take it back for a few seconds. One offer at a time —
 * a newer change replaces the offer of the one before. Ctrl/Cmd+Z (outside a text field) and the
 * toast's Undo button run the current one (components/UndoToast.tsx).
 */

/** How long an offer stays, unless the pointer or the focus is on it. */
export const UNDO_MS = 6000;

export interface UndoOffer {
  id: number;
  /** What was done, e.g. `Deleted "Buy milk"`; the toast reads it out. */
  text: string;
  /** True while the undo runs (the button is then disabled). */
  running: boolean;
}

interface Entry extends UndoOffer {
  undo: () => Promise<unknown>;
  /** The sentence shown if it fails ("Undo failed"). */
  operation: Operation;
}

let current: Entry | null = null;
let snapshot: UndoOffer | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let held = false;
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: Entry | null): void {
  current = next;
  snapshot = next && { id: next.id, text: next.text, running: next.running };
  listeners.forEach((listener) => listener());
}

function startTimer(): void {
  clearTimeout(timer);
  if (!current || held || current.running) return;
  const { id } = current;
  timer = setTimeout(() => dismissUndo(id), UNDO_MS);
}

export interface OfferUndoOptions {
  /** The failure notice's sentence; default "Undo failed". */
  operation?: Operation;
}

/**
 * Offers to take back a change that has just succeeded: `undo` makes the calls that restore the
 * previous state (and updates the caches); if it throws, the error is shown as a failed change.
 * Returns the offer's id.
 */
export function offerUndo(
  text: string,
  undo: () => Promise<unknown>,
  options: OfferUndoOptions = {},
): number {
  const id = nextId++;
  publish({ id, text, undo, running: false, operation: options.operation ?? msg`Undo failed` });
  startTimer();
  return id;
}

/** Takes the offer away (its time is up, the user closed it, or it no longer applies). */
export function dismissUndo(id: number): void {
  if (current?.id !== id) return;
  clearTimeout(timer);
  publish(null);
}

/** Runs the current offer's undo; false when there is none (or it is already running). */
export function runUndo(): boolean {
  const entry = current;
  if (!entry || entry.running) return false;
  clearTimeout(timer);
  publish({ ...entry, running: true });
  entry
    .undo()
    .catch((error: unknown) => reportMutationError(error, entry.operation))
    .finally(() => dismissUndo(entry.id));
  return true;
}

/**
 * Holds the offer while the pointer or the keyboard focus is on it (time to read and reach it,
 * WCAG 2.2.1), and gives it its full time again when they leave.
 */
export function holdUndo(hold: boolean): void {
  held = hold;
  if (hold) clearTimeout(timer);
  else startTimer();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getOffer = () => snapshot;

/** The offer shown now, or null. */
export function useUndoOffer(): UndoOffer | null {
  return useSyncExternalStore(subscribe, getOffer, getOffer);
}
