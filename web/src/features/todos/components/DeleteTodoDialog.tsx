import { useLingui } from '@lingui/react/macro';
import type { Todo } from '@tally/contract';
import { ConfirmDialog } from '#web/components/ConfirmDialog';

interface DeleteTodoDialogProps {
  /** The todo to delete; null keeps the dialog closed. */
  todo: Todo | null;
  pending: boolean;
  onConfirm: (todo: Todo) => void;
  onCancel: () => void;
  /** Where the focus goes once the todo's row is gone (Dialog's fallbackFocus). */
  fallbackFocus?: () => HTMLElement | null;
}

/** Confirm Delete: Are you sure you want to delete "{title}"? (the title as text). */
export function DeleteTodoDialog({
  todo,
  pending,
  onConfirm,
  onCancel,
  fallbackFocus,
}: DeleteTodoDialogProps) {
  const { t } = useLingui();
  const title = todo?.title;
  return (
    <ConfirmDialog
      {...(fallbackFocus ? { fallbackFocus } : {})}
      open={todo !== null}
      title={t`Confirm Delete`}
      confirmLabel={t`Delete`}
      pending={pending}
      onConfirm={() => todo && onConfirm(todo)}
      onCancel={onCancel}
    >
      <p>
        {/* A string, not <Trans>: a title's "<b>" stays text rather than markup. */}
        {t`Are you sure you want to delete "${title}"?`}
      </p>
    </ConfirmDialog>
  );
}
