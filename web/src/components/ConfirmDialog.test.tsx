import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { ConfirmDialog } from './ConfirmDialog';
import { renderTranslated } from '#web/test/render';

function Harness({ onConfirm, pending = false }: { onConfirm: () => void; pending?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Revoke…</Button>
      <ConfirmDialog
        open={open}
        title="Revoke API token"
        confirmLabel="Revoke"
        pending={pending}
        onConfirm={() => {
          onConfirm();
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        <p>Anything that uses it stops working at once.</p>
      </ConfirmDialog>
    </>
  );
}

describe('ConfirmDialog', () => {
  it('focuses Cancel first, and Cancel closes it without confirming', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderTranslated(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Revoke…' }));

    const dialog = screen.getByRole('dialog', { name: 'Revoke API token' });
    expect(dialog).toHaveAccessibleDescription('Anything that uses it stops working at once.');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('confirms with the button that names the action', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderTranslated(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Revoke…' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('cannot be confirmed twice while the action runs', async () => {
    const user = userEvent.setup();
    renderTranslated(<Harness onConfirm={vi.fn()} pending />);
    await user.click(screen.getByRole('button', { name: 'Revoke…' }));
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeDisabled();
  });
});
