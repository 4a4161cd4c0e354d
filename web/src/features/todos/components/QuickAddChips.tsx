import { DismissButton } from '#web/components/DismissButton';
import type { Chip, ChipKind } from '../lib/quick-add';

const KIND_NAMES: Record<ChipKind, string> = {
  date: 'Date',
  time: 'Time',
  group: 'Group',
  repeat: 'Repeat',
  tag: 'Tag',
  priority: 'Priority',
  start: 'Start',
};

interface QuickAddChipsProps {
  chips: readonly Chip[];
  /** The title as it will be saved, without the words understood. */
  title: string;
  onRemove: (chip: Chip) => void;
}

const summaryOf = (chips: readonly Chip[]) =>
  chips.length === 0
    ? ''
    : `Understood: ${chips.map((chip) => `${KIND_NAMES[chip.kind].toLowerCase()} ${chip.label}`).join(', ')}`;

/**
 * What quick add understood in the title, as removable chips under the field, and the title that
 * will be saved. Removing a chip leaves its words in the title. A polite live region says what
 * was understood, for screen readers.
 */
export function QuickAddChips({ chips, title, onRemove }: QuickAddChipsProps) {
  return (
    <>
      <p className="sr-only" aria-live="polite">
        {summaryOf(chips)}
      </p>
      {chips.length > 0 && (
        <div className="mt-2 space-y-1.5">
          <ul aria-label="Quick add understood" className="flex flex-wrap gap-2">
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
                  {KIND_NAMES[chip.kind]}
                </span>
                <span className="truncate">{chip.label}</span>
                <DismissButton
                  label={`Remove ${KIND_NAMES[chip.kind].toLowerCase()} ${chip.label}`}
                  onClick={() => onRemove(chip)}
                  className="my-0 rounded-full px-1.5 enabled:hover:bg-blue-100 dark:enabled:hover:bg-slate-700"
                />
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Saved as “
            <span className="font-medium text-slate-900 dark:text-slate-100">{title}</span>”
          </p>
        </div>
      )}
    </>
  );
}
