import type { AccessTokenClaims } from '@tally/contract';

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the access token's payload (sub, roles, exp). The signature is the server's business;
 * a token whose payload is missing or unparseable gives null and counts as invalid
 * (docs/product.md, Sessions).
 */
export function decodeAccessToken(token: string): AccessTokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (typeof payload !== 'object' || payload === null) return null;
    const { sub, exp, roles } = payload as Record<string, unknown>;
    if (typeof sub !== 'string' || sub === '') return null;
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
    const roleList = Array.isArray(roles)
      ? roles.filter((role): role is string => typeof role === 'string')
      : [];
    return { sub, exp, roles: roleList };
  } catch {
    return null;
  }
}
