/**
 * Whether the provider's sign-in used more than one factor, from the ID token's `amr`
 * (Authentication Methods References, RFC 8176). The merger of issue 26 connects this to Tally's
 * own second factor: an OIDC (or Google) sign-in skips Tally's TOTP step only when it answers true.
 *
 * `mfa` says so outright (Authentik, Zitadel, Entra ID send it); `mca` is "multiple-channel
 * authentication". Otherwise two methods of different kinds count (something known, something
 * held, something one is): `pwd` + `otp` is MFA, `otp` + `sms` (both held) is not. Anything else
 * (no `amr`, a value of another shape, only unknown words) is not, and neither is any `amr` when
 * the operator sets OIDC_TRUST_PROVIDER_MFA=false.
 */
const KNOWN = new Set(['pwd', 'pin', 'kba']);
const HELD = new Set(['otp', 'hwk', 'swk', 'sc', 'sms', 'tel']);
const INHERENT = new Set(['fpt', 'face', 'iris', 'retina', 'vbm']);

export function providerDidMfa(amr: unknown, trustProviderMfa: boolean): boolean {
  if (!trustProviderMfa || !Array.isArray(amr)) return false;
  const methods = amr.filter((value): value is string => typeof value === 'string');
  if (methods.includes('mfa') || methods.includes('mca')) return true;
  const kinds = [KNOWN, HELD, INHERENT].filter((kind) => methods.some((m) => kind.has(m)));
  return kinds.length >= 2;
}
