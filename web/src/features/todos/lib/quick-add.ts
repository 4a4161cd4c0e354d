import { i18n } from '@lingui/core';
import type { Group } from '@tally/contract';
import { readQuickAddText, type QuickAddText } from '@tally/contract/quick-add-text';
import { formatTime } from '#web/lib/date-format';
import { dateOf, dayLabel } from './dates';
import { PRIORITY_NAMES } from './priority-names';
import { repeatRule } from '#web/lib/repeat-words';

/**
 * Quick add in the new-todo form and the quick add line: the contract's reader (the one the e-mail subject and the MCP
 * `add` text go through, so the same words make the same todo), in the browser's zone and date
 * order, with each chip labelled as the screens write dates, times and repeats.
 *
 * Loaded lazily by the new-todo form (chrono-node is most of its weight).
 */

export type ChipKind = 'date' | 'time' | 'group' | 'repeat' | 'tag' | 'priority' | 'start';

export interface Chip {
  kind: ChipKind;
  /** What the chip reads: "Tomorrow", "09:00", "Home", "every month". */
  label: string;
  /** The words it was read from, which removing the chip leaves in the title; '' if implied. */
  text: string;
  /** Removing the chip remembers these keys, so the same words are not read again. */
  dismiss: string[];
}

interface QuickAdd extends Omit<QuickAddText<Group>, 'chips' | 'group'> {
  groupId?: number;
  chips: Chip[];
}

interface QuickAddOptions {
  groups: readonly Group[];
  /** Keys of removed chips. */
  dismissed: ReadonlySet<string>;
  now: Date;
  /** A due date is set in the form already: a time or a repeat then needs no date of its own. */
  hasDate?: boolean;
}

/** What the title says, as labelled chips, and the title without the words understood. */
export function parseQuickAdd(input: string, options: QuickAddOptions): QuickAdd {
  const { group, chips, ...read } = readQuickAddText(input, {
    ...options,
    monthFirst: typeof navigator !== 'undefined' && navigator.language === 'en-US',
    // The screen's language is read as well as English (decision 180).
    language: i18n.locale,
  });
  const today = dateOf(options.now);
  const labelOf = (kind: ChipKind, value: string): string => {
    switch (kind) {
      case 'date':
      case 'start':
        return dayLabel(value, today);
      case 'time':
        return formatTime(value);
      case 'repeat':
        return read.repeat ? repeatRule(read.repeat, read.dueDate ?? null) : value;
      case 'priority':
        return read.priority ? i18n._(PRIORITY_NAMES[read.priority]) : value;
      default:
        return value;
    }
  };
  return {
    ...read,
    ...(group ? { groupId: group.id } : {}),
    chips: chips.map(({ kind, value, text, dismiss }) => ({
      kind,
      label: labelOf(kind, value),
      text,
      dismiss,
    })),
  };
}
