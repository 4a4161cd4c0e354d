import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for the API tests: what a platform authenticator does with
 * the options the server hands out, written from the WebAuthn Level 3 text with node:crypto
 * (ES256 keys, authenticatorData, clientDataJSON, attestation "none"), so the tests send the
 * server real answers without a browser. Each knob lets a test make one thing wrong.
 */

// --- A minimal CBOR encoder (RFC 8949): what attestation objects and COSE keys need ---------------

// A map's keys are integers (COSE) or text (the attestation object), in the order given.
type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    head(5, entries.length),
    ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)]),
  ]);
}

// --- The authenticator ----------------------------------------------------------------------------

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOptions {
  /** The page's origin (the test server's PUBLIC_URL by default). */
  origin?: string;
  /** User verification done (true by default: a fingerprint or PIN). */
  userVerified?: boolean;
  /** Sign with this counter instead of the next one. */
  counter?: number;
  /** Claim this user handle instead of the credential's. */
  userHandle?: string;
}

export interface RegistrationOptionsJSON {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

export interface AuthenticationOptionsJSON {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const TEST_ORIGIN = 'http://localhost:3000';

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /**
   * navigator.credentials.create: a new ES256 key for the relying party, or (with `reuse`) the
   * credential made earlier, as a second account would be offered it.
   */
  register(
    options: RegistrationOptionsJSON,
    ceremony: CeremonyOptions & { reuse?: StoredCredential } = {},
  ) {
    const rpId = options.rp.id ?? 'localhost';
    let credential = ceremony.reuse;
    if (!credential) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      credential = {
        id: randomBytes(32),
        privateKey,
        cose,
        rpId,
        userHandle: options.user.id,
        counter: 0,
      };
      this.credentials.push(credential);
    }
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, credential.cose]);
    const uv = ceremony.userVerified ?? true;
    const authData = this.authData(
      rpId,
      FLAG_UP | (uv ? FLAG_UV : 0) | FLAG_AT,
      ceremony.counter ?? credential.counter,
      attested,
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      options.challenge,
      ceremony.origin ?? TEST_ORIGIN,
    );
    return {
      credential,
      response: {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
          transports: ['internal'],
        },
      },
    };
  }

  /** navigator.credentials.get with one of its credentials (the first it has by default). */
  authenticate(
    options: AuthenticationOptionsJSON,
    ceremony: CeremonyOptions & { credential?: StoredCredential } = {},
  ) {
    const credential = ceremony.credential ?? this.credentials[0];
    if (!credential) throw new Error('the software authenticator has no credential');
    const counter = ceremony.counter ?? credential.counter + 1;
    credential.counter = Math.max(credential.counter, counter);
    const uv = ceremony.userVerified ?? true;
    const authData = this.authData(
      options.rpId ?? credential.rpId,
      FLAG_UP | (uv ? FLAG_UV : 0),
      counter,
    );
    const clientDataJSON = this.clientData(
      'webauthn.get',
      options.challenge,
      ceremony.origin ?? TEST_ORIGIN,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: ceremony.userHandle ?? credential.userHandle,
      },
    };
  }
}
