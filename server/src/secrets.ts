import { createECDH, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir } from './db/private-files.js';

/**
 * The secrets Tally keeps in DATA_DIR when the operator sets none (the JWT secret, the VAPID key
 * pair): each made on first start and kept owner-only, so tokens and browsers' push
 * subscriptions outlive a restart. config.ts checks the operator's values without importing
 * anything of a feature.
 */

/**
 * The text of DATA_DIR/`name`, made by `make` when the file is missing. Several processes may
 * start at once (WEB_CONCURRENCY, or two containers on one volume): each writes its own temporary
 * file and links it to the name, which succeeds for exactly one; the others, refused with EEXIST,
 * read that one, whole (a file created empty and then written could be read in between).
 */
function secretFile(
  dataDir: string,
  name: string,
  make: () => string,
): { file: string; text: string } {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) {
    makePrivateDir(dataDir);
    const text = make();
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(draft, text, { mode: 0o600, flag: 'wx' });
    chmodSync(draft, 0o600);
    try {
      linkSync(draft, file);
      return { file, text };
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return { file, text: readFileSync(file, 'utf8') };
}

/**
 * JWT_SECRET when set; otherwise a random 256-bit secret generated on first start and kept in
 * DATA_DIR/jwt-secret.
 */
export function resolveJwtSecret(config: { jwtSecret: string | null; dataDir: string }): string {
  if (config.jwtSecret) return config.jwtSecret;
  const { file, text } = secretFile(
    config.dataDir,
    'jwt-secret',
    () => `${randomBytes(32).toString('base64url')}\n`,
  );
  const stored = text.trim();
  if (Buffer.byteLength(stored) < 32) {
    throw new Error(`${file} holds a secret shorter than 32 bytes; delete it or set JWT_SECRET`);
  }
  return stored;
}

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
 * otherwise a pair generated on first start and kept in DATA_DIR/vapid-keys.json: browsers
 * subscribed with the public key, so it must outlive a restart, and under WEB_CONCURRENCY the
 * primary makes it before the workers read it (main.ts).
 */
export function resolveVapidKeys(config: {
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  dataDir: string;
}): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  }
  const { file, text } = secretFile(
    config.dataDir,
    'vapid-keys.json',
    () => `${JSON.stringify(generateVapidKeys())}\n`,
  );
  let stored: unknown;
  try {
    stored = JSON.parse(text);
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
