import { describe, expect, it } from 'vitest';
import { providerDidMfa } from './provider-mfa.js';

describe('providerDidMfa', () => {
  it('trusts an explicit mfa or multiple-channel claim', () => {
    expect(providerDidMfa(['pwd', 'mfa'], true)).toBe(true);
    expect(providerDidMfa(['mfa'], true)).toBe(true);
    expect(providerDidMfa(['mca'], true)).toBe(true);
  });

  it('counts two methods of different kinds', () => {
    expect(providerDidMfa(['pwd', 'otp'], true)).toBe(true);
    expect(providerDidMfa(['hwk', 'fpt'], true)).toBe(true);
    expect(providerDidMfa(['pin', 'face'], true)).toBe(true);
  });

  it('does not count one kind twice, one method, or nothing', () => {
    expect(providerDidMfa(['otp', 'sms'], true)).toBe(false);
    expect(providerDidMfa(['pwd', 'kba'], true)).toBe(false);
    expect(providerDidMfa(['pwd'], true)).toBe(false);
    expect(providerDidMfa([], true)).toBe(false);
    expect(providerDidMfa(undefined, true)).toBe(false);
  });

  it('ignores claims of another shape and unknown words', () => {
    expect(providerDidMfa('mfa', true)).toBe(false);
    expect(providerDidMfa([1, null, { mfa: true }], true)).toBe(false);
    expect(providerDidMfa(['pwd', 'geo', 'user'], true)).toBe(false);
  });

  it('never trusts the provider when the operator says so (OIDC_TRUST_PROVIDER_MFA=false)', () => {
    expect(providerDidMfa(['pwd', 'mfa'], false)).toBe(false);
    expect(providerDidMfa(['pwd', 'otp'], false)).toBe(false);
  });
});
