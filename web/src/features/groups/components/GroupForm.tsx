import { useRef, useState, type FormEvent } from 'react';
import type { Group, GroupBody } from '@tally/contract';
import { DEFAULT_GROUP_COLOR, LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { TextField } from '#web/components/FormField';
import { ColorSwatches } from './ColorSwatches';

interface GroupFormProps {
  /** The group being edited; null for a new one. Give the form a key per group. */
  editing: Group | null;
  pending: boolean;
  /** Resolves true when saved, so the form can reset. */
  onSubmit: (body: GroupBody) => Promise<boolean>;
  onCancel: () => void;
}

/** Group name (required) and colour; Create Group, or Update Group with Cancel. */
export function GroupForm({ editing, pending, onSubmit, onCancel }: GroupFormProps) {
  const [name, setName] = useState(editing?.name ?? '');
  const [color, setColor] = useState<string>(editing?.color ?? DEFAULT_GROUP_COLOR);
  const nameRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const saved = await onSubmit({ name: name.trim(), color: color as GroupBody['color'] });
    if (saved && !editing) {
      setName('');
      setColor(DEFAULT_GROUP_COLOR);
      nameRef.current?.focus();
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      aria-label={editing ? 'Edit group' : 'New group'}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900"
    >
      <TextField
        label="Group name"
        id="group-name"
        ref={nameRef}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={LIMITS.groupNameMax}
        autoComplete="off"
        autoFocus={editing !== null}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && editing) onCancel();
        }}
      />
      <ColorSwatches name="group-color" value={color} onChange={setColor} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={pending}>
          {editing ? 'Update Group' : 'Create Group'}
        </Button>
        {editing && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
