import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Group } from '@tally/contract';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import { GroupForm } from './GroupForm';
import { GroupList } from './GroupList';

/** /groups: Manage Groups. */
export function GroupsPage() {
  const groups = useGroups();
  const deleteGroup = useDeleteGroup();
  const [editing, setEditing] = useState<Group | null>(null);
  const { t } = useLingui();

  const remove = (group: Group) => {
    if (!window.confirm(t`Delete this group? Todos will become ungrouped.`)) return;
    deleteGroup.mutate(group, {
      onSuccess: () => {
        if (editing?.id === group.id) setEditing(null);
      },
    });
  };

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Manage Groups</Trans>
      </h1>
      <GroupForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      <section aria-label={t`Your groups`} className="mt-8">
        {groups.isPending ? (
          <LoadingText>{t`Loading groups...`}</LoadingText>
        ) : groups.isError ? (
          <ErrorBanner
            message={errorMessage(groups.error, msg`Load groups failed`)}
            onRetry={() => void groups.refetch()}
          />
        ) : (
          <GroupList
            groups={groups.data}
            editingId={editing?.id ?? null}
            onEdit={setEditing}
            onDelete={remove}
          />
        )}
      </section>
    </div>
  );
}
