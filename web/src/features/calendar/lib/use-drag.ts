import type { Todo } from '@tally/contract';
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';

/**
 * Dragging a todo with the mouse, a pen or a finger, on pointer events
 * (docs/decisions/167-calendar-drag-on-pointer-events.md). A drag starts once the pointer has
 * moved a few pixels, so a tap or a click still opens the todo; the drop target is the element
 * under the pointer that names a day (data-drop-date, "" for none) and, in the time grid
 * (data-drop-timed), the quarter hour under it.
 */

/** Where a todo was dropped: its new day (null: no date) and time (null: none, undefined: kept). */
export interface DropTarget {
  date: string | null;
  minutes: number | null | undefined;
}

interface DragState {
  todo: Todo;
  x: number;
  y: number;
  target: DropTarget | null;
}

/** How far the pointer moves before a press becomes a drag, in CSS pixels. */
const THRESHOLD = 6;
const QUARTER = 15;

/** The day and time under a point of the screen, or null over nothing that takes a todo. */
function targetAt(x: number, y: number): DropTarget | null {
  const element = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-drop-date]');
  if (!element) return null;
  const date = element.dataset.dropDate || null;
  if (element.dataset.dropTimed === undefined) return { date, minutes: undefined };
  if (element.dataset.dropTimed === 'untimed') return { date, minutes: null };
  const rect = element.getBoundingClientRect();
  const minutes = ((y - rect.top) / rect.height) * 24 * 60;
  const snapped = Math.round(minutes / QUARTER) * QUARTER;
  return { date, minutes: Math.min(Math.max(snapped, 0), 24 * 60 - QUARTER) };
}

export function useDrag(onDrop: (todo: Todo, target: DropTarget) => void) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const onDropRef = useRef(onDrop);
  useEffect(() => {
    onDropRef.current = onDrop;
  });
  /** True right after a drag, so the click that ends it does not also open the todo. */
  const justDragged = useRef(false);
  const cleanup = useRef<(() => void) | null>(null);
  useEffect(() => () => cleanup.current?.(), []);

  const start = useCallback((event: PointerEvent<HTMLElement>, todo: Todo) => {
    if (event.button !== 0) return;
    const { pointerId, clientX: x0, clientY: y0 } = event;
    let dragging = false;
    const move = (e: globalThis.PointerEvent) => {
      if (e.pointerId !== pointerId) return;
      if (!dragging && Math.hypot(e.clientX - x0, e.clientY - y0) < THRESHOLD) return;
      dragging = true;
      e.preventDefault();
      setDrag({ todo, x: e.clientX, y: e.clientY, target: targetAt(e.clientX, e.clientY) });
    };
    const end = (e: globalThis.PointerEvent) => {
      if (e.pointerId !== pointerId) return;
      stop();
      if (!dragging) return;
      justDragged.current = true;
      setTimeout(() => {
        justDragged.current = false;
      }, 0);
      setDrag(null);
      const target = e.type === 'pointerup' ? targetAt(e.clientX, e.clientY) : null;
      if (target) onDropRef.current(todo, target);
    };
    const stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      cleanup.current = null;
    };
    cleanup.current?.();
    cleanup.current = stop;
    window.addEventListener('pointermove', move, { passive: false });
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  }, []);

  return { drag, start, justDragged };
}
