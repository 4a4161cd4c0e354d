import { lazy, Suspense } from 'react';
import { useConfig } from '../api/get-config';
import { type GoogleSignInProps, PlaceholderButton, GOOGLE_REASONS } from './GooglePlaceholder';

export { GOOGLE_REASONS, GOOGLE_SDK_MESSAGES, type GoogleSignInProps } from './GooglePlaceholder';

/** Google's own button, loaded only where a client id is configured (most hosts have none). */
const GoogleIdentityButton = lazy(() =>
  import('./GoogleIdentityButton').then((module) => ({ default: module.GoogleIdentityButton })),
);

/**
 * "Continue with Google" on /login. The client id comes from GET /api/config at runtime; without
 * one the button is shown disabled with the reason, and nothing is loaded from Google.
 */
export function GoogleSignInButton(props: GoogleSignInProps) {
  const config = useConfig();
  if (config.isError) return <PlaceholderButton reason={GOOGLE_REASONS.configUnavailable} />;
  if (config.isPending) return <PlaceholderButton busy />;
  const { googleClientId } = config.data;
  if (googleClientId === null) return <PlaceholderButton reason={GOOGLE_REASONS.notConfigured} />;
  return (
    <Suspense fallback={<PlaceholderButton busy />}>
      <GoogleIdentityButton clientId={googleClientId} {...props} />
    </Suspense>
  );
}
