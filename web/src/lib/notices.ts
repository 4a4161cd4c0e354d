import { useSyncExternalStore } from 'react';

type NoticeTone = 'error' | 'info';

/** A button on a notice (a reminder's Complete and Snooze); pressed, it also dismisses it. */
interface NoticeAction {
  label: string;
  /** The button's accessible name when the label alone says too little ("Complete Buy milk"). */
  name?: string;
  run: () => void;
}

export interface Notice {
  id: number;
  tone: NoticeTone;
  text: string;
  actions?: readonly NoticeAction[];
}

interface ShowNoticeOptions {
  tone?: NoticeTone;
  /** Hides the notice by itself after this long; without it the user dismisses it. */
  durationMs?: number;
  actions?: readonly NoticeAction[];
}

let notices: readonly Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Notice[]): void {
  notices = next;
  listeners.forEach((listener) => listener());
}

/** Shows a message in the app's notice area; the same text is never shown twice at once. */
export function showNotice(text: string, options: ShowNoticeOptions = {}): number {
  const id = nextId++;
  const notice: Notice = {
    id,
    text,
    tone: options.tone ?? 'error',
    ...(options.actions ? { actions: options.actions } : {}),
  };
  publish([...notices.filter((existing) => existing.text !== text), notice]);
  if (options.durationMs !== undefined) {
    setTimeout(() => dismissNotice(id), options.durationMs);
  }
  return id;
}

export function dismissNotice(id: number): void {
  if (notices.some((notice) => notice.id === id)) {
    publish(notices.filter((notice) => notice.id !== id));
  }
}

export function clearNotices(): void {
  if (notices.length > 0) publish([]);
}

export function getNotices(): readonly Notice[] {
  return notices;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNotices(): readonly Notice[] {
  return useSyncExternalStore(subscribe, getNotices, getNotices);
}
