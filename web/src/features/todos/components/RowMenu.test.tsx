import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderTranslated } from '#web/test/render';
import { RowMenu } from './RowMenu';

function renderMenu() {
  const chosen = vi.fn<(label: string) => void>();
  const rowKeys = vi.fn();
  const items = ['Skip', 'Edit', 'Add subtask', 'Delete'].map((label) => ({
    label,
    onSelect: () => chosen(label),
  }));
  renderTranslated(
    // The list around it: the row keys must never see the menu's.
    <div onKeyDown={rowKeys}>
      <RowMenu title="Pay rent" items={items} />
      <button type="button">Elsewhere</button>
    </div>,
  );
  return { chosen, rowKeys, user: userEvent.setup() };
}

describe('RowMenu', () => {
  it('is a menu button: Enter opens it on its first item, arrows wrap, Escape returns', async () => {
    const { rowKeys, user } = renderMenu();
    const button = screen.getByRole('button', { name: 'Actions for Pay rent' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Actions for Pay rent' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(screen.getByRole('menuitem', { name: 'Skip' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Skip' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Skip' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(rowKeys).not.toHaveBeenCalled();
  });

  it('↑ opens it on its last item; Enter on an item chooses it and closes the menu', async () => {
    const { chosen, user } = renderMenu();
    const button = screen.getByRole('button', { name: 'Actions for Pay rent' });
    button.focus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{Enter}');
    expect(chosen).toHaveBeenCalledWith('Add subtask');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('a click elsewhere closes it', async () => {
    const { chosen, user } = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Actions for Pay rent' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(chosen).not.toHaveBeenCalled();
  });
});
