import { describe, expect, it } from 'vitest';
import { providerDidMfa } from './provider-mfa.js';

describe('providerDidMfa', () => {
  it('trusts an explicit mfa or multiple-channel claim', () => {
    expect(providerDidMfa(['pwd', 'mfa'])).toBe(true);
    expect(providerDidMfa(['mfa'])).toBe(true);
    expect(providerDidMfa(['mca'])).toBe(true);
  });

  it('counts two methods of different kinds', () => {
    expect(providerDidMfa(['pwd', 'otp'])).toBe(true);
    expect(providerDidMfa(['hwk', 'fpt'])).toBe(true);
    expect(providerDidMfa(['pin', 'face'])).toBe(true);
  });

  it('does not count one kind twice, one method, or nothing', () => {
    expect(providerDidMfa(['otp', 'sms'])).toBe(false);
    expect(providerDidMfa(['pwd', 'kba'])).toBe(false);
    expect(providerDidMfa(['pwd'])).toBe(false);
    expect(providerDidMfa([])).toBe(false);
    expect(providerDidMfa(undefined)).toBe(false);
  });

  it('ignores claims of another shape and unknown words', () => {
    expect(providerDidMfa('mfa')).toBe(false);
    expect(providerDidMfa([1, null, { mfa: true }])).toBe(false);
    expect(providerDidMfa(['pwd', 'geo', 'user'])).toBe(false);
  });
});
