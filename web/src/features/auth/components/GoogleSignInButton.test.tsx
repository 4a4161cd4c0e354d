import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { fakeBackend, json } from '../../../test/fake-api';
import { GoogleSignInButton } from './GoogleSignInButton';

function renderButton() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <GoogleSignInButton />
    </QueryClientProvider>,
  );
}

describe('GoogleSignInButton', () => {
  it('is disabled and says why when GET /api/config has no client id', async () => {
    const { calls } = fakeBackend({ googleClientId: null });
    renderButton();
    const button = screen.getByRole('button', { name: /Continue with Google/ });
    expect(button).toBeDisabled();
    const reason = await screen.findByText('Google sign-in is not configured');
    expect(button).toHaveAccessibleDescription('Google sign-in is not configured');
    expect(reason).toBeVisible();
    expect(calls.map((call) => call.path)).toEqual(['/api/config']);
  });

  it('stays disabled, with a reason, when the settings cannot be loaded', async () => {
    fakeBackend({}, { 'GET /api/config': () => json({ error: 'boom' }, 500) });
    renderButton();
    expect(await screen.findByText('Google sign-in is unavailable right now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
  });
});
