import { Trans, useLingui } from '@lingui/react/macro';
import type { Group } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ColorDot } from '#web/components/ColorDot';

interface GroupListProps {
  groups: Group[];
  editingId: number | null;
  onEdit: (group: Group) => void;
  onDelete: (group: Group) => void;
}

/** Each group with its colour dot, name, Edit and Delete. */
export function GroupList({ groups, editingId, onEdit, onDelete }: GroupListProps) {
  const { t } = useLingui();
  if (groups.length === 0) {
    return (
      <p className="py-8 text-center text-slate-600 dark:text-slate-400">
        <Trans>No groups yet. Create one above.</Trans>
      </p>
    );
  }
  return (
    <ul
      aria-label={t`Groups`}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
    >
      {groups.map((group) => {
        const groupName = group.name;
        return (
          <li
            key={group.id}
            className={
              'flex flex-wrap items-center gap-3 px-4 py-3 ' +
              (editingId === group.id ? 'bg-blue-50 dark:bg-slate-800' : '')
            }
          >
            <ColorDot color={group.color} size={14} />
            <span className="min-w-0 flex-1 font-medium break-words text-slate-900 dark:text-slate-100">
              {group.name}
            </span>
            <div className="flex gap-2">
              <Button
                variant="ghost"
                size="compact"
                aria-label={t`Edit ${groupName}`}
                onClick={() => onEdit(group)}
              >
                <Trans>Edit</Trans>
              </Button>
              <Button
                variant="ghostDanger"
                size="compact"
                aria-label={t`Delete ${groupName}`}
                onClick={() => onDelete(group)}
              >
                <Trans>Delete</Trans>
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
