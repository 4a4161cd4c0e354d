import { useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { cn } from '#web/lib/cn';
import { dismissNotice, useNotices } from '#web/lib/notices';
import { Button } from './Button';
import { DismissButton } from './DismissButton';
import { UndoToast } from './UndoToast';

/**
 * Where app-wide notices appear (forced logout, session expiry, failed changes), with the Undo
 * toast below them.
 */
export function NoticeRegion() {
  const notices = useNotices();
  const { t } = useLingui();
  // The height the notices and the toast take at the bottom of the window (0 when none shows),
  // followed as they come, wrap and go.
  const [room, setRoom] = useState(0);
  const measureRoom = useCallback((section: HTMLElement | null) => {
    if (!section || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const shown = [...section.children].some((child) => child.getBoundingClientRect().height > 0);
      setRoom(shown ? Math.ceil(section.getBoundingClientRect().height) : 0);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(section);
    for (const child of section.children) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {/* The page ends this much lower while a notice or the Undo toast shows, so the last rows'
          controls can be scrolled out from under it. */}
      <div aria-hidden="true" style={{ height: room }} />
      <section
        ref={measureRoom}
        aria-label={t`Notices`}
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        {notices.map((notice) => (
          <div
            key={notice.id}
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={cn(
              'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-md px-4 py-3',
              'text-sm shadow-lg',
              notice.tone === 'error'
                ? 'bg-red-700 text-white'
                : 'bg-slate-800 text-white dark:bg-slate-700',
            )}
          >
            <div className="min-w-0 flex-1">
              <p className="break-words">{notice.text}</p>
              {notice.actions && (
                <div className="mt-2 flex flex-wrap gap-2">
                  {notice.actions.map((action) => (
                    <Button
                      key={action.label}
                      variant="bare"
                      size="sm"
                      aria-label={action.name}
                      className="min-h-11 border border-white/60 enabled:hover:bg-white/20 sm:min-h-9"
                      onClick={() => {
                        dismissNotice(notice.id);
                        action.run();
                      }}
                    >
                      {action.label}
                    </Button>
                  ))}
                </div>
              )}
            </div>
            <DismissButton
              label={t`Dismiss notification`}
              onClick={() => dismissNotice(notice.id)}
              className="enabled:hover:bg-white/20"
            />
          </div>
        ))}
        <UndoToast />
      </section>
    </>
  );
}
