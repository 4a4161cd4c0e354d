import type { Group } from '@tally/contract';
import { inputClass, labelClass } from '#web/components/form-styles';

interface GroupSelectProps {
  id: string;
  value: number | null;
  groups: readonly Group[];
  onChange: (groupId: number | null) => void;
}

/** The group select; its first option is No Group, which stands for null. */
export function GroupSelect({ id, value, groups, onChange }: GroupSelectProps) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Group
      </label>
      <select
        id={id}
        value={value === null ? '' : String(value)}
        onChange={(event) =>
          onChange(event.target.value === '' ? null : Number(event.target.value))
        }
        className={inputClass}
      >
        <option value="">No Group</option>
        {groups.map((group) => (
          <option key={group.id} value={String(group.id)}>
            {group.name}
          </option>
        ))}
      </select>
    </div>
  );
}
