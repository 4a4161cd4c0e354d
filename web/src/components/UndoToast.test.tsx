import { act, screen } from '@testing-library/react';
import { renderTranslated } from '#web/test/render';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissUndo, offerUndo, UNDO_MS } from '#web/lib/undo';
import { UndoToast } from './UndoToast';

afterEach(() => {
  vi.useRealTimers();
});

describe('UndoToast', () => {
  it('announces an offer, runs its undo from the button once, then goes', async () => {
    const user = userEvent.setup();
    renderTranslated(<UndoToast />);
    const undo = vi.fn(async () => undefined);
    act(() => void offerUndo('Deleted "Buy milk"', undo));
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('Deleted "Buy milk"');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('runs on Ctrl+Z, but not while typing in a text field', async () => {
    const user = userEvent.setup();
    renderTranslated(
      <>
        <input aria-label="Title" />
        <UndoToast />
      </>,
    );
    const undo = vi.fn(async () => undefined);
    act(() => void offerUndo('Moved "Tax" to Home', undo));
    await user.click(await screen.findByRole('textbox', { name: 'Title' }));
    await user.keyboard('{Control>}z{/Control}');
    expect(undo).not.toHaveBeenCalled();
    await user.click(document.body);
    await user.keyboard('{Meta>}z{/Meta}');
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('leaves after its time unless the pointer or focus holds it; a newer offer replaces it', () => {
    vi.useFakeTimers();
    renderTranslated(<UndoToast />);
    const first = vi.fn(async () => undefined);
    act(() => void offerUndo('first', first));
    act(
      () =>
        void offerUndo(
          'second',
          vi.fn(async () => undefined),
        ),
    );
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('second');
    expect(screen.getByTestId('undo-toast')).not.toHaveTextContent('first');
    act(() => vi.advanceTimersByTime(UNDO_MS - 1));
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('second');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('undo-toast')).toBeEmptyDOMElement();

    let id = 0;
    act(() => void (id = offerUndo('held', first)));
    act(() => screen.getByRole('button', { name: 'Undo' }).focus());
    act(() => vi.advanceTimersByTime(UNDO_MS * 2));
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('held');
    act(() => dismissUndo(id));
    expect(first).not.toHaveBeenCalled();
  });
});
