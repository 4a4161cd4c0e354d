import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { resolveVapidKeys } from './secrets.js';

describe('VAPID keys', () => {
  it('are generated once in DATA_DIR and read back by every later start', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'tally-vapid-')), 'data');
    const first = resolveVapidKeys({ dataDir, vapidPublicKey: null, vapidPrivateKey: null });
    const again = resolveVapidKeys({ dataDir, vapidPublicKey: null, vapidPrivateKey: null });
    expect(again).toEqual(first);
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set (servers on several machines)', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    });
    expect(resolveVapidKeys(config)).toEqual(keys);
    expect(config.vapidSubject).toBe('mailto:ops@example.com');
  });

  it('refuse half a pair, a bad key, a bad subject or a damaged file', () => {
    const load = (env: Record<string, string>) => () => loadConfig(env);
    expect(load({ VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey })).toThrow(
      /set together/,
    );
    expect(load({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: 'def' })).toThrow(/key pair/);
    expect(load({ VAPID_SUBJECT: 'http://example.com' })).toThrow(/VAPID_SUBJECT/);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-vapid-'));
    writeFileSync(path.join(dataDir, 'vapid-keys.json'), '{"publicKey":"x"}');
    expect(() =>
      resolveVapidKeys({ dataDir, vapidPublicKey: null, vapidPrivateKey: null }),
    ).toThrow(/does not hold a VAPID key pair/);
  });

  it('name a contact: PUBLIC_URL when https, else the MAIL_FROM address', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://tally.example.com' }).vapidSubject).toBe(
      'https://tally.example.com',
    );
    expect(
      loadConfig({ SMTP_URL: 'smtp://mail:25', MAIL_FROM: 'Tally <tally@example.com>' })
        .vapidSubject,
    ).toBe('mailto:tally@example.com');
    expect(loadConfig({}).vapidSubject).toMatch(/^mailto:/);
  });
});
