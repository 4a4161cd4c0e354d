import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicOnlyLookup } from '../shared/public-address.js';
import { endpointProblem } from './push-endpoint.js';

describe('push endpoints (server-side request forgery)', () => {
  it.each([
    ['8.8.8.8', true],
    ['2a00:1450:4001:80b::200a', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('takes the push services browsers use, and loopback http only when allowed', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD',
    ]) {
      expect(endpointProblem(endpoint, false)).toBeNull();
    }
    expect(endpointProblem('http://127.0.0.1:4000/push/1', false)).toMatch(/https/);
    expect(endpointProblem('http://127.0.0.1:4000/push/1', true)).toBeNull();
    // Numeric forms a URL parser turns into loopback are loopback.
    expect(endpointProblem('https://0x7f.1/x', false)).toMatch(/public/);
    expect(endpointProblem('https://2130706433/x', false)).toMatch(/public/);
  });

  it('refuses at connection time a name that resolves to a non-public address', async () => {
    const lookup = (all: boolean) =>
      new Promise<unknown>((resolve, reject) => {
        publicOnlyLookup('localhost', { all }, (error, address) =>
          error ? reject(error) : resolve(address),
        );
      });
    await expect(lookup(false)).rejects.toThrow(/non-public/);
    await expect(lookup(true)).rejects.toThrow(/non-public/);
  });
});
