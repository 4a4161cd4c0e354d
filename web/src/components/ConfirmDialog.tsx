import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The button that does it: names the action ("Delete forever"), never just "OK". */
  confirmLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape and a click on the backdrop. */
  onCancel: () => void;
  /** While the action runs, its button is disabled so it cannot be sent twice. */
  pending?: boolean;
  /** Red for what cannot be undone (a delete, a revoke); blue for a change that can be redone. */
  tone?: 'danger' | 'primary';
  /** Where the focus goes once the element it came from is gone (Dialog's fallbackFocus). */
  fallbackFocus?: () => HTMLElement | null;
  children: ReactNode;
}

/**
 * Asks before an action that cannot be taken back: Cancel first and focused, so Enter or a
 * reflex does not confirm it.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  tone = 'danger',
  fallbackFocus,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog
      {...(fallbackFocus ? { fallbackFocus } : {})}
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} data-autofocus>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant={tone} disabled={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
