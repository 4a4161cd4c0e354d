import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts TOTP secrets at rest (AES-256-GCM), so a copy of the database or a backup alone does
 * not give anyone the codes. The key is derived from the server's secret (app.ts), which the
 * database never holds. Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export function createSecretBox(key: Buffer) {
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(stored: string): string {
      const [version, iv, tag, sealed] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || sealed === undefined) {
        throw new Error('Unknown format of a stored two-factor secret');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(sealed, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
