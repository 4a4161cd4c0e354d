import { createECDH } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { makePrivateDir } from '../db/private-files.js';

/** The server's VAPID key pair (base64url, as Web Push and PushManager.subscribe take them). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const isKey = (value: unknown, bytes: number): value is string =>
  typeof value === 'string' &&
  /^[A-Za-z0-9_-]+$/.test(value) &&
  Buffer.from(value, 'base64url').length === bytes;

const isKeyPair = (value: unknown): value is VapidKeys =>
  typeof value === 'object' &&
  value !== null &&
  isKey((value as VapidKeys).publicKey, 65) &&
  isKey((value as VapidKeys).privateKey, 32);

/**
 * A new P-256 pair as web-push's generateVAPIDKeys makes it (uncompressed public point, private
 * scalar left-padded to 32 bytes), with node:crypto, so web-push is loaded only to send a push.
 */
function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey();
  const privateKey = Buffer.alloc(32);
  scalar.copy(privateKey, 32 - scalar.length);
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set (servers on several machines share them so);
 * otherwise a pair generated on first start and kept in DATA_DIR/vapid-keys.json (owner-only),
 * as the JWT secret is: browsers subscribed with the public key, so it must outlive a restart,
 * and under WEB_CONCURRENCY the primary makes it before the workers read it (main.ts).
 */
export function resolveVapidKeys(
  config: Pick<Config, 'vapidPublicKey' | 'vapidPrivateKey' | 'dataDir'>,
): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  }
  const file = path.join(config.dataDir, 'vapid-keys.json');
  if (!existsSync(file)) {
    makePrivateDir(config.dataDir);
    const keys = generateVapidKeys();
    try {
      writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
      return keys;
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let stored: unknown;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    stored = null;
  }
  if (!isKeyPair(stored)) {
    throw new Error(
      `${file} does not hold a VAPID key pair; delete it (browsers then turn reminders on again) or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`,
    );
  }
  return { publicKey: stored.publicKey, privateKey: stored.privateKey };
}

/** Checks an operator's VAPID_* values the way resolveVapidKeys needs them. */
export function checkVapidKeys(publicKey: string | null, privateKey: string | null): string[] {
  if (publicKey === null && privateKey === null) return [];
  if (publicKey === null || privateKey === null) {
    return ['VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together'];
  }
  return isKeyPair({ publicKey, privateKey })
    ? []
    : [
        'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a VAPID key pair in base64url (npx web-push generate-vapid-keys)',
      ];
}
