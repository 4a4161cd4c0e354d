import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setSystemDark } from '#web/test/match-media';
import { renderTranslated } from '#web/test/render';
import { ThemeToggle } from './ThemeToggle';

const html = document.documentElement;

describe('ThemeToggle', () => {
  it('follows the OS while nothing is saved, live', () => {
    renderTranslated(<ThemeToggle />);
    expect(screen.getByRole('button', { name: 'Follow system theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(html).not.toHaveClass('dark');
    act(() => setSystemDark(true));
    expect(html).toHaveClass('dark');
    expect(screen.getByRole('button', { name: 'Dark theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    act(() => setSystemDark(false));
    expect(html).not.toHaveClass('dark');
  });

  it('switches between light and dark and saves the choice under "theme"', async () => {
    const user = userEvent.setup();
    renderTranslated(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: 'Dark theme' });

    await user.click(toggle);
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');

    await user.click(toggle);
    expect(html).not.toHaveClass('dark');
    expect(window.localStorage.getItem('theme')).toBe('light');

    // A saved choice wins over the OS.
    act(() => setSystemDark(true));
    expect(html).not.toHaveClass('dark');
  });

  it('choosing system removes the saved value and follows the OS again', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem('theme', 'light');
    renderTranslated(<ThemeToggle />);
    act(() => setSystemDark(true));
    expect(html).not.toHaveClass('dark');

    await user.click(screen.getByRole('button', { name: 'Follow system theme' }));
    expect(window.localStorage.getItem('theme')).toBeNull();
    expect(html).toHaveClass('dark');
  });
});
