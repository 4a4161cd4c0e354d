import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { hasCommand, runCommand, type PageCommand } from '#web/lib/commands';

/** How long after `g` its second key still counts (g t, g s, g g). */
const SEQUENCE_MS = 1500;
const GO_TO: Readonly<Record<string, string>> = { t: '/todos', s: '/statistics', g: '/groups' };

/** Inputs that take no typing: a shortcut pressed on them still counts. */
const NOT_TYPING = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

/** Whether keys pressed on `target` are typing (an editable field has them, not the shortcuts). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TYPING.has(target.type);
}

/** A modal is up (the palette, the sheet, a confirm): its keys are its own. */
const dialogOpen = () => document.querySelector('dialog[open], [aria-modal="true"]') !== null;

interface ShortcutHandlers {
  openPalette: () => void;
  openSheet: () => void;
}

/**
 * The global keys of docs/product.md, Keyboard: Ctrl/Cmd+K, n, /, g t, g s, g g and ?. None
 * fires while typing in a field, with another modifier held, or while a dialog is open; a key a
 * screen has already handled (its default prevented, as the list's row keys do) is left alone.
 */
export function useShortcuts(enabled: boolean, { openPalette, openSheet }: ShortcutHandlers) {
  const [location, navigate] = useLocation();
  const latest = useRef({ location, navigate, openPalette, openSheet });
  useEffect(() => {
    latest.current = { location, navigate, openPalette, openSheet };
  });

  useEffect(() => {
    if (!enabled) return;
    let gPressedAt = -Infinity;

    /** Runs a /todos command, opening /todos first when the screen shown does not offer it. */
    const onTodos = (command: Exclude<PageCommand, 'showFilter' | 'setSort' | 'openTodo'>) => {
      if (!hasCommand(command)) latest.current.navigate('/todos');
      runCommand(command);
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || dialogOpen()) return;
      const { key } = event;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && key.toLowerCase() === 'k') {
        // Ctrl+K is the browser's search bar shortcut: the palette takes it, even in a field.
        event.preventDefault();
        latest.current.openPalette();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;

      const sequence = event.timeStamp - gPressedAt <= SEQUENCE_MS;
      gPressedAt = -Infinity;
      const goTo = GO_TO[key];
      if (sequence && goTo !== undefined) {
        event.preventDefault();
        if (latest.current.location !== goTo) latest.current.navigate(goTo);
        return;
      }
      switch (key) {
        case 'g':
          gPressedAt = event.timeStamp;
          return;
        case '?':
          event.preventDefault();
          latest.current.openSheet();
          return;
        case '/':
          // Not the browser's quick find: our search box.
          event.preventDefault();
          onTodos('focusSearch');
          return;
        case 'n':
          // Prevented, so that the letter is not typed into the title field it focuses.
          event.preventDefault();
          onTodos('newTodo');
          return;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
