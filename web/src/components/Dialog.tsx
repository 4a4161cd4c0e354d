import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  title: string;
  /** Called on Escape, on a click on the backdrop, and by the dialog's own buttons. */
  onClose: () => void;
  children: ReactNode;
  /** Buttons, aligned to the end of the line under the content of a modal. */
  actions?: ReactNode;
  /** Beside the title of a panel, at the top: its Close button. */
  headerAction?: ReactNode;
  /**
   * `modal`: a short question in the middle of the screen, its content read out as the dialog's
   * description. `panel`: a long view, placed by `className`.
   */
  layout?: 'modal' | 'panel';
  /** The size and place of a panel (the modal's are fixed). */
  className?: string;
  /**
   * Where the focus goes when the element it came from is gone (a deleted row's button): the
   * next row, say. Without it, or when it finds nothing, the main content.
   */
  fallbackFocus?: () => HTMLElement | null;
}

const focused = () =>
  document.activeElement instanceof HTMLElement ? document.activeElement : null;

const modalBox =
  'm-auto w-[calc(100%-2rem)] max-w-md rounded-lg bg-white p-0 text-slate-900 shadow-xl ' +
  'backdrop:bg-black/60 dark:bg-slate-900 dark:text-slate-100';

/**
 * A modal dialog on the native <dialog>: showModal makes the rest of the page inert (the focus
 * trap), Escape closes it, and focus returns to where it was (or to the main content when that
 * element is gone, as after a delete). The element marked data-autofocus gets focus first.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  headerAction,
  layout = 'modal',
  className,
  fallbackFocus,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const fallbackRef = useRef(fallbackFocus);
  useLayoutEffect(() => {
    fallbackRef.current = fallbackFocus;
  });
  const titleId = useId();
  const bodyId = useId();
  // Where the focus was as it opened, read while rendering: by the time effects run, a field of
  // the content may have taken the focus already.
  const [opened, setOpened] = useState(() => ({ open, from: open ? focused() : null }));
  if (opened.open !== open) setOpened({ open, from: open ? focused() : null });
  const returnTo = opened.from;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]');
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (returnTo?.isConnected) returnTo.focus();
      else (fallbackRef.current?.() ?? document.getElementById('main'))?.focus();
    };
  }, [open, returnTo]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={layout === 'modal' ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={layout === 'modal' ? modalBox : className}
    >
      {open &&
        (layout === 'modal' ? (
          <div className="p-6">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <div
              id={bodyId}
              className="mt-3 text-sm break-words text-slate-700 dark:text-slate-300"
            >
              {children}
            </div>
            <div className="mt-6 flex flex-wrap justify-end gap-3">{actions}</div>
          </div>
        ) : (
          <div className="space-y-4 p-4 sm:p-6">
            <div className="flex items-start justify-between gap-3">
              <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words">
                {title}
              </h2>
              {headerAction}
            </div>
            {children}
          </div>
        ))}
    </dialog>
  );
}
