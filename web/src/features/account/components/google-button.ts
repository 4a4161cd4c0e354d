import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';

/** What Settings needs of Google's button: a fresh ID-token credential when it is used. */
interface GoogleButtonProps {
  /** Google handed over an ID-token credential. */
  onCredential: (credential: string) => void;
  /** Google's client reported a failure without a credential. */
  onFailure: () => void;
  /** The credential is being checked by the server. */
  pending?: boolean;
  /** Announced while the credential is checked ("Linking Google..."). */
  pendingText: string;
}

/**
 * Google's button, brought by app/ from the sign-in feature (features do not import each other),
 * so that linking and deleting get a credential exactly as Continue with Google does.
 */
export type GoogleButton = ComponentType<GoogleButtonProps>;

/** Google's client failed without a credential. */
export const GOOGLE_CLIENT_FAILURE = msg`Google sign-in failed - please try again`;
