import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { dismissUndo, holdUndo, runUndo, useUndoOffer } from '#web/lib/undo';
import { Button } from './Button';
import { DismissButton } from './DismissButton';

/** Inputs that take no typing: Ctrl/Cmd+Z pressed on them is the app's undo. */
const NOT_TYPING = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

/** In a text field, Ctrl/Cmd+Z is the field's own undo of typing. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TYPING.has(target.type);
}

/**
 * The Undo toast (lib/undo.ts): what was just done, an Undo button and a close button. The live
 * region is always there, so a screen reader announces each new offer; the offer waits while
 * the pointer or the focus is on it. Ctrl/Cmd+Z runs it, unless the focus is in a text field.
 */
export function UndoToast() {
  const offer = useUndoOffer();
  const { t } = useLingui();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
      if (event.key.toLowerCase() !== 'z' || isTyping(event.target)) return;
      if (runUndo()) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // An offer that goes away while held (replaced, undone) must not leave the next one held.
  useEffect(() => () => holdUndo(false), [offer?.id]);

  return (
    // A live region without role="status", so that it is not one more status of every screen
    // (screens and their tests find their own status message by that role).
    <div
      aria-live="polite"
      aria-atomic="true"
      data-testid="undo-toast"
      className="pointer-events-auto w-full max-w-sm"
    >
      {offer && (
        <div
          className="flex items-center gap-3 rounded-md bg-slate-800 px-4 py-2 text-sm text-white shadow-lg dark:bg-slate-700"
          onPointerEnter={() => holdUndo(true)}
          onPointerLeave={() => holdUndo(false)}
          onFocus={() => holdUndo(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) holdUndo(false);
          }}
        >
          <p className="min-w-0 flex-1 break-words">{offer.text}</p>
          <Button
            variant="bare"
            size="sm"
            disabled={offer.running}
            onClick={() => runUndo()}
            className="font-semibold text-sky-300 underline-offset-2 enabled:hover:underline"
          >
            {offer.running ? t`Undoing...` : t`Undo`}
          </Button>
          <DismissButton
            label={t`Dismiss`}
            onClick={() => dismissUndo(offer.id)}
            className="enabled:hover:bg-white/20"
          />
        </div>
      )}
    </div>
  );
}
