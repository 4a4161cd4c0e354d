/**
 * Sensitive changes (making an API token, linking Google, a calendar feed URL) answer 403 with
 * code reauthentication_required when the session has not proved the password for a few minutes
 * (docs/decisions/071-recent-authentication.md). The screen that offers them (Settings) registers
 * a prompt here; lib/api-client.ts asks it, then sends the call again once.
 */

/** Asks the person to prove who they are; true once the server accepted the proof. */
export type IdentityPrompt = () => Promise<boolean>;

let prompt: IdentityPrompt | null = null;

/** Registers the prompt of the screen on show; the returned function removes it. */
export function setIdentityPrompt(next: IdentityPrompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = null;
  };
}

/** Runs the registered prompt; false without one (the refusal's sentence is shown instead). */
export async function proveIdentity(): Promise<boolean> {
  return prompt ? prompt() : false;
}
