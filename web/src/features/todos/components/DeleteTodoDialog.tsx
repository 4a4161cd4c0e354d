import type { Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Dialog } from '#web/components/Dialog';

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
  return (
    <Dialog
      {...(fallbackFocus ? { fallbackFocus } : {})}
      open={todo !== null}
      title="Confirm Delete"
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={() => todo && onConfirm(todo)}>
            Delete
          </Button>
        </>
      }
    >
      <p>Are you sure you want to delete &quot;{todo?.title}&quot;?</p>
    </Dialog>
  );
}
