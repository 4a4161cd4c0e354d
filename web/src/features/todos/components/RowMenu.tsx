import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '#web/lib/cn';

export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

interface RowMenuProps {
  /** The todo's title, which names the button ("Actions for Pay rent"). */
  title: string;
  items: readonly RowMenuItem[];
  /** -1 inside the All list, whose rows are one Tab stop (→ and ← reach the button). */
  tabIndex?: number | undefined;
}

/** Room the menu needs under its button (four 44 px items): less than that, it opens upwards. */
const MENU_PX = 200;

/**
 * A row's actions behind one button (the WAI-ARIA menu button pattern): on a phone it stands for
 * the row's text buttons, so a title has the row's width; at every width it offers Add subtask.
 * Enter, Space, ↓ or a click open it on its first item (↑ on its last); ↑ ↓ Home End move,
 * Enter or Space take an item, Escape closes it with the focus back on the button, Tab or a
 * click elsewhere closes it. Its keys stay in it: the list's row keys never see them.
 */
export function RowMenu({ title, items, tabIndex }: RowMenuProps) {
  const { t } = useLingui();
  const label = t`Actions for ${title}`;
  const [open, setOpen] = useState<'first' | 'last' | null>(null);
  const [upwards, setUpwards] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const itemsOf = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const all = itemsOf();
    (open === 'first' ? all[0] : all[all.length - 1])?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(null);
      }
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const show = (at: 'first' | 'last') => {
    const box = buttonRef.current?.getBoundingClientRect();
    setUpwards(box !== undefined && box.bottom + MENU_PX > window.innerHeight);
    setOpen(at);
  };

  const close = () => {
    setOpen(null);
    buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopPropagation();
      show(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Enter' || event.key === ' ') {
      // The click the key makes opens it (as a screen reader's click does); the list's row keys
      // must not see the key.
      event.stopPropagation();
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Tab') {
      setOpen(null);
      return;
    }
    event.stopPropagation();
    const all = itemsOf();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      all[next]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    // On a phone the 44 px button takes a 36 px line (-my-1), as tall as the title's.
    <div className="relative -my-1 sm:my-0">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? menuId : undefined}
        tabIndex={tabIndex}
        onClick={() => {
          if (open) setOpen(null);
          else show('first');
        }}
        onKeyDown={onButtonKeyDown}
        className={
          'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-slate-700 ' +
          'hover:bg-slate-100 sm:min-h-9 sm:min-w-9 dark:text-slate-200 dark:hover:bg-slate-800'
        }
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="currentColor">
          <circle cx="3" cy="8" r="1.5" />
          <circle cx="8" cy="8" r="1.5" />
          <circle cx="13" cy="8" r="1.5" />
        </svg>
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
          onBlur={(event) => {
            // The focus left the menu for something that is not its button: it closes.
            const next = event.relatedTarget as Node | null;
            if (next && !menuRef.current?.contains(next) && next !== buttonRef.current) {
              setOpen(null);
            }
          }}
          className={cn(
            'absolute end-0 z-20 flex min-w-40 flex-col rounded-md border border-slate-300 ' +
              'bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900',
            upwards ? 'bottom-full mb-1' : 'top-full mt-1',
          )}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                // The focus goes back to the button first: a dialog the item opens returns it
                // there, and an item that replaces the row moves it on itself.
                close();
                item.onSelect();
              }}
              className={cn(
                'min-h-11 px-4 text-start text-sm font-medium outline-none sm:min-h-9 ' +
                  'hover:bg-slate-100 focus:bg-slate-100 focus:outline-2 focus:outline-solid ' +
                  'focus:-outline-offset-2 focus:outline-blue-700 dark:hover:bg-slate-800 ' +
                  'dark:focus:bg-slate-800 dark:focus:outline-blue-300',
                item.danger
                  ? 'text-red-700 dark:text-red-300'
                  : 'text-slate-800 dark:text-slate-100',
              )}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
