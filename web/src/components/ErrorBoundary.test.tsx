import { screen } from '@testing-library/react';
import { renderTranslated } from '#web/test/render';
import { describe, expect, it } from 'vitest';
import { consoleErrors } from '#web/test/console-guard';
import { ErrorBoundary } from './ErrorBoundary';

function Broken(): never {
  throw new Error('chunk failed to load');
}

describe('ErrorBoundary', () => {
  it('shows a way out instead of a blank page', () => {
    renderTranslated(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    // React and the boundary both report the error: expected here.
    expect(consoleErrors.some((args) => String(args[0]).includes('Screen failed'))).toBe(true);
    consoleErrors.length = 0;
  });
});
