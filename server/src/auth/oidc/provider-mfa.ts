/**
 * Whether the provider's sign-in used more than one factor, from the ID token's `amr`
 * (Authentication Methods References, RFC 8176). An OpenID Connect sign-in skips Tally's own
 * second step only when it answers true and TRUST_PROVIDER_MFA is on (auth/sign-in.ts).
 *
 * `mfa` says so outright (Authentik, Zitadel, Entra ID send it); `mca` is "multiple-channel
 * authentication". Otherwise two methods of different kinds count (something known, something
 * held, something one is): `pwd` + `otp` is MFA, `otp` + `sms` (both held) is not. Anything else
 * (no `amr`, a value of another shape, only unknown words) is not.
 */
const KNOWN = new Set(['pwd', 'pin', 'kba']);
const HELD = new Set(['otp', 'hwk', 'swk', 'sc', 'sms', 'tel']);
const INHERENT = new Set(['fpt', 'face', 'iris', 'retina', 'vbm']);

export function providerDidMfa(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const methods = amr.filter((value): value is string => typeof value === 'string');
  if (methods.includes('mfa') || methods.includes('mca')) return true;
  const kinds = [KNOWN, HELD, INHERENT].filter((kind) => methods.some((m) => kind.has(m)));
  return kinds.length >= 2;
}
