/** http_ece (web-push's own encryption library) has no types; the tests decrypt with it. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair (the browser's, in a test). */
    privateKey: ECDH;
    authSecret: Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
