import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './screens';

const page = () =>
  preloadable(async () => ({
    default: function Ready() {
      return <p>Ready</p>;
    },
  }));

const shown = (Screen: () => React.ReactNode) =>
  render(
    <Suspense fallback={<p>Loading...</p>}>
      <Screen />
    </Suspense>,
  );

describe('a screen loaded ahead', () => {
  it('shows at once, never "Loading..."', async () => {
    const { Screen, preload } = page();
    await preload();
    shown(Screen);
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('not loaded ahead, shows "Loading..." until its code is there', async () => {
    const { Screen } = page();
    shown(Screen);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByText('Ready')).toBeInTheDocument();
  });
});
