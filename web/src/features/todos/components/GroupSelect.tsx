import { Trans, useLingui } from '@lingui/react/macro';
import type { Group } from '@tally/contract';
import { SelectField } from '#web/components/FormField';

interface GroupSelectProps {
  value: number | null;
  groups: readonly Group[];
  onChange: (groupId: number | null) => void;
}

/** The group select; its first option is No Group, which stands for null. */
export function GroupSelect({ value, groups, onChange }: GroupSelectProps) {
  const { t } = useLingui();
  return (
    <SelectField
      label={t`Group`}
      value={value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
    >
      <option value="">
        <Trans>No Group</Trans>
      </option>
      {groups.map((group) => (
        <option key={group.id} value={String(group.id)}>
          {group.name}
        </option>
      ))}
    </SelectField>
  );
}
