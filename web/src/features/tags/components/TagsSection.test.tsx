import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** The screen's code is a lazy chunk (app/router.tsx), loaded on the first visit. */
const LAZY_LOAD = { timeout: 15_000 };

beforeEach(() => {
  storeSession('alice');
});

describe('/groups: tags', () => {
  it('names the colours a tag can take as the group swatches are named', async () => {
    fakeBackend(
      {},
      { 'GET /api/tags': () => json([{ name: 'work', color: '#EF4444', count: 2 }]) },
    );
    renderApp('/groups');
    const select = await screen.findByRole('combobox', { name: 'Colour of tag work' }, LAZY_LOAD);
    const options = [...(select as HTMLSelectElement).options].map((option) => option.text);
    expect(options).toEqual([
      'No colour',
      'Blue',
      'Red',
      'Green',
      'Amber',
      'Violet',
      'Pink',
      'Cyan',
      'Lime',
    ]);
    expect(select).toHaveDisplayValue('Red');
  });
});
