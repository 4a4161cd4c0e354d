import { useLingui } from '@lingui/react/macro';
import { memo, useRef, type KeyboardEvent } from 'react';
import type { Group } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ColorDot } from '#web/components/ColorDot';
import { countOf, type FilterCounts, type TodoFilter } from '../lib/filters';

interface FilterTabsProps {
  /** Of all the user's todos, whatever is hidden or still loading. */
  counts: FilterCounts;
  groups: readonly Group[];
  active: TodoFilter;
  onChange: (filter: TodoFilter) => void;
  /** The id of the panel the tabs control. */
  panelId: string;
}

interface Tab {
  filter: TodoFilter;
  label: string;
  color?: string;
}

export const tabId = (filter: TodoFilter) => `todo-filter-${filter}`;

/**
 * All (n), No Group (n) and one tab per group with its colour dot, name and count. A WAI-ARIA
 * tab list: one tab stop, arrow keys / Home / End move and select.
 */
export const FilterTabs = memo(function FilterTabs({
  counts,
  groups,
  active,
  onChange,
  panelId,
}: FilterTabsProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const { t } = useLingui();
  const tabs: Tab[] = [
    { filter: 'all', label: t`All` },
    { filter: 'none', label: t`No Group` },
    ...groups.map((group) => ({ filter: group.id, label: group.name, color: group.color })),
  ];

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = tabs.findIndex((tab) => tab.filter === active);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowDown: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      ArrowUp: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onChange(tab.filter);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tab.filter))}`)?.focus();
  };

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={t`Filter todos`}
      // On a phone the tabs are one row that scrolls sideways (the group tabs are used less than
      // the list below them); from 640 px they wrap.
      className="-mx-1 flex gap-2 overflow-x-auto px-1 py-1 sm:flex-wrap sm:overflow-visible"
    >
      {tabs.map((tab) => {
        const selected = tab.filter === active;
        return (
          <Button
            key={String(tab.filter)}
            id={tabId(tab.filter)}
            variant={selected ? 'selected' : 'outline'}
            size="sm"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.filter)}
            onKeyDown={onKeyDown}
            className="max-w-full min-h-11 shrink-0 rounded-full sm:min-h-9 sm:shrink"
          >
            {tab.color && <ColorDot color={tab.color} size={10} />}
            <span className="truncate">
              {tab.label} ({countOf(counts, tab.filter)})
            </span>
          </Button>
        );
      })}
    </div>
  );
});
