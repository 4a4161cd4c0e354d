import { Trans, useLingui } from '@lingui/react/macro';
import { Fragment } from 'react';
import { Button } from '#web/components/Button';
import { Dialog } from '#web/components/Dialog';
import { SHORTCUT_SECTIONS } from './shortcut-list';

function Keys({ keys }: { keys: readonly string[][] }) {
  return (
    <>
      {keys.map((combo, index) => (
        <Fragment key={combo.join('+')}>
          {index > 0 && (
            <span className="px-1 text-slate-600 dark:text-slate-400">
              <Trans>or</Trans>
            </span>
          )}
          {combo.map((key, keyIndex) => (
            // By place: a key may repeat (g g), and a combination never reorders.
            <Fragment key={keyIndex}>
              {/* A sequence (g then t) reads "g t"; a chord (Ctrl+K) "Ctrl K" with a plus. */}
              {keyIndex > 0 && (
                <span aria-hidden="true" className="px-0.5 text-slate-600 dark:text-slate-400">
                  {combo[0] === 'g' ? ' ' : '+'}
                </span>
              )}
              <kbd className="rounded border border-slate-400 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-900 dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100">
                {key}
              </kbd>
            </Fragment>
          ))}
        </Fragment>
      ))}
    </>
  );
}

/** The `?` sheet: every keyboard shortcut, global and in the list. */
export default function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Dialog
      open
      title={t`Keyboard shortcuts`}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          <Trans>Close</Trans>
        </Button>
      }
    >
      <div className="space-y-4">
        {SHORTCUT_SECTIONS.map((section) => (
          <section key={section.title.id}>
            <h3 className="mb-1 font-semibold text-slate-900 dark:text-slate-100">
              {i18n._(section.title)}
            </h3>
            <dl className="divide-y divide-slate-200 dark:divide-slate-700">
              {section.shortcuts.map((shortcut) => (
                <div
                  key={shortcut.action.id}
                  className="flex items-center justify-between gap-4 py-1.5"
                >
                  <dt className="text-slate-800 dark:text-slate-200">{i18n._(shortcut.action)}</dt>
                  <dd className="shrink-0 text-end">
                    <Keys keys={shortcut.keys} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
