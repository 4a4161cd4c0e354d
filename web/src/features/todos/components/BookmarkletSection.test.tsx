import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { storeSession } from '#web/test/tokens';
import { BookmarkletSection } from './BookmarkletSection';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('/settings, Share and bookmarklet', () => {
  it('offers a bookmarklet that opens /share with the page, to drag or to copy', async () => {
    fakeBackend();
    const { user } = renderSection(<BookmarkletSection />);
    const section = await screen.findByRole('region', { name: 'Share and bookmarklet' });
    const code = within(section).getByLabelText(
      "Bookmarklet code (paste it as a bookmark's address)",
    ) as HTMLInputElement;
    expect(code.value).toMatch(/^javascript:/);
    expect(code.value).toContain(`'${window.location.origin}/share?'`);
    expect(within(section).getByRole('link', { name: 'Add to Tally' })).toHaveAttribute(
      'href',
      code.value,
    );
    await user.click(within(section).getByRole('button', { name: 'Copy code' }));
    expect(await navigator.clipboard.readText()).toBe(code.value);
  });
});
