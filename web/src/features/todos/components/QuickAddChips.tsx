import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { DismissButton } from '#web/components/DismissButton';
import type { Chip, ChipKind } from '../lib/quick-add';

const KIND_NAMES: Record<ChipKind, MessageDescriptor> = {
  date: msg`Date`,
  time: msg`Time`,
  group: msg`Group`,
  repeat: msg`Repeat`,
  tag: msg`Tag`,
  priority: msg`Priority`,
  start: msg`Start`,
};

/** "date Tomorrow", as the summary and a chip's Remove button say it. */
const chipWords = (chip: Chip) => {
  const kind = i18n._(KIND_NAMES[chip.kind]).toLocaleLowerCase();
  return `${kind} ${chip.label}`;
};

interface QuickAddChipsProps {
  chips: readonly Chip[];
  /** The title as it will be saved, without the words understood. */
  title: string;
  onRemove: (chip: Chip) => void;
}

const summaryOf = (chips: readonly Chip[]) => {
  if (chips.length === 0) return '';
  const understood = chips.map(chipWords).join(', ');
  return t`Understood: ${understood}`;
};

/**
 * What quick add understood in the title, as removable chips under the field, and the title that
 * will be saved. Removing a chip leaves its words in the title. A polite live region says what
 * was understood, for screen readers.
 */
export function QuickAddChips({ chips, title, onRemove }: QuickAddChipsProps) {
  const { t: translate } = useLingui();
  const saved = <span className="font-medium text-slate-900 dark:text-slate-100">{title}</span>;
  return (
    <>
      <p className="sr-only" aria-live="polite">
        {summaryOf(chips)}
      </p>
      {chips.length > 0 && (
        <div className="mt-2 space-y-1.5">
          <ul aria-label={translate`Quick add understood`} className="flex flex-wrap gap-2">
            {chips.map((chip) => (
              <li
                key={`${chip.kind}:${chip.label}`}
                className={
                  'inline-flex max-w-full items-center gap-1.5 rounded-full border py-0.5 pe-1 ps-3 text-sm ' +
                  'border-blue-300 bg-blue-50 text-blue-950 ' +
                  'dark:border-blue-700 dark:bg-slate-800 dark:text-blue-50'
                }
              >
                <span className="text-xs font-semibold text-blue-800 dark:text-blue-200">
                  {i18n._(KIND_NAMES[chip.kind])}
                </span>
                <span className="truncate">{chip.label}</span>
                <DismissButton
                  label={translate`Remove ${chipWords(chip)}`}
                  onClick={() => onRemove(chip)}
                  className="my-0 rounded-full px-1.5 enabled:hover:bg-blue-100 dark:enabled:hover:bg-slate-700"
                />
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {/* The title is an element, not a string: Trans would read a "<b>" in it as markup. */}
            <Trans>Saved as “{saved}”</Trans>
          </p>
        </div>
      )}
    </>
  );
}
