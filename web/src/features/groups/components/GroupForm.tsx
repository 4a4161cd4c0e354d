import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import type { Group, GroupBody } from '@tally/contract';
import { DEFAULT_GROUP_COLOR, LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { useCreateGroup } from '../api/create-group';
import { useUpdateGroup } from '../api/update-group';
import { ColorSwatches } from './ColorSwatches';

interface GroupFormProps {
  /** The group being edited; null for a new one. Give the form a key per group. */
  editing: Group | null;
  /** The edit is saved or cancelled. */
  onDone: () => void;
}

/** Group name (required) and colour; Create Group, or Update Group with Cancel. */
export function GroupForm({ editing, onDone }: GroupFormProps) {
  const createGroup = useCreateGroup();
  const updateGroup = useUpdateGroup();
  const [name, setName] = useState(editing?.name ?? '');
  const [color, setColor] = useState<string>(editing?.color ?? DEFAULT_GROUP_COLOR);
  const nameRef = useRef<HTMLInputElement>(null);
  const saving = editing ? updateGroup : createGroup;
  const nameError = fieldErrorOf(saving.error, 'name');
  const { t } = useLingui();

  const submit = () => {
    const body: GroupBody = { name: name.trim(), color: color as GroupBody['color'] };
    if (editing) {
      updateGroup.mutate({ id: editing.id, ...body }, { onSuccess: onDone });
      return;
    }
    // A new group's form stays, emptied, for the next one.
    createGroup.mutate(body, {
      onSuccess: () => {
        setName('');
        setColor(DEFAULT_GROUP_COLOR);
        nameRef.current?.focus();
      },
    });
  };

  return (
    <Form label={editing ? t`Edit group` : t`New group`} card onSubmit={submit}>
      <TextField
        label={t`Group name`}
        id="group-name"
        ref={nameRef}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          // The refusal beside the name goes once the name is edited.
          if (saving.isError) saving.reset();
        }}
        error={nameError}
        required
        maxLength={LIMITS.groupNameMax}
        autoComplete="off"
        autoFocus={editing !== null}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && editing) onDone();
        }}
      />
      <ColorSwatches name="group-color" value={color} onChange={setColor} />
      <FormActions>
        <Button type="submit" disabled={createGroup.isPending || updateGroup.isPending}>
          {editing ? t`Update Group` : t`Create Group`}
        </Button>
        {editing && (
          <Button variant="secondary" onClick={onDone}>
            <Trans>Cancel</Trans>
          </Button>
        )}
      </FormActions>
    </Form>
  );
}
