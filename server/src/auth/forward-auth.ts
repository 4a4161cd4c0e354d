import { type AccessTokenResponse, authApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BlockList, isIP } from 'node:net';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, notFound, unauthorized } from '../shared/errors.js';
import { sameOriginOnly } from './routes.js';

/** What the auth routes hand a way to sign in (auth/routes.ts, SignInMethodOptions). */
interface ForwardAuthSignInOptions {
  config: { rateLimit: { max: number; timeWindow: string } };
  signIn: (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
  ) => Promise<AccessTokenResponse>;
}

/** The ranges of the presets TRUST_PROXY and AUTH_PROXY_TRUSTED share (config.ts). */
const PRESETS: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** A matcher of the connecting address against AUTH_PROXY_TRUSTED's entries. */
function trustedPeers(entries: string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    for (const [address, prefix, type] of PRESETS[entry] ?? [])
      list.addSubnet(address, prefix, type);
    if (PRESETS[entry]) continue;
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (raw) => {
    if (!raw) return false;
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const address = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw)?.[1] ?? raw;
    return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Forward auth (AUTH_PROXY_HEADER, docs/decisions/128-forward-auth.md): a proxy such as Authelia
 * or Authentik signs the person in and names them in a header. POST /api/auth/proxy turns that
 * into a Tally session as a password sign-in would, so the web app, its service worker and
 * renewals work as always, and nothing else in the server reads the header. Only the connecting
 * address counts (never X-Forwarded-For): any other client could name whoever it likes.
 */
export const forwardAuthRoutes =
  (settings: {
    header: string | null;
    trusted: string[];
  }): FastifyPluginAsync<ForwardAuthSignInOptions> =>
  async (app, { config, signIn }) => {
    const { header } = settings;
    const isTrusted = trustedPeers(settings.trusted);
    addEndpoint(
      app,
      authApi.proxySignIn,
      async (request, reply) => {
        if (header === null) throw notFound('Forward auth');
        const peer = request.socket.remoteAddress;
        const named = request.headers[header];
        const username = typeof named === 'string' ? named.trim() : '';
        if (!isTrusted(peer)) {
          if (username) {
            request.log.warn(
              { security: 'forward-auth-untrusted', ip: request.ip, peer },
              'Forward-auth header from an address not in AUTH_PROXY_TRUSTED: ignored',
            );
          }
          throw unauthorized('No sign-in from a trusted proxy');
        }
        if (!username) throw unauthorized('No sign-in from a trusted proxy');
        const user = await app.db
          .selectFrom('users')
          .select('id')
          .where('username_lower', '=', username.toLowerCase())
          .executeTakeFirst();
        if (!user) {
          request.log.warn(
            { security: 'forward-auth-unknown', account: username, ip: request.ip },
            'Forward auth named a user with no Tally account',
          );
          throw new AppError(
            403,
            'Your proxy signed you in, but Tally has no account with that username - ask the person who runs it',
          );
        }
        return signIn(request, reply, user.id);
      },
      { config, preHandler: sameOriginOnly },
    );
  };
