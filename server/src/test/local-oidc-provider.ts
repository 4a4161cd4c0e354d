/**
 * A real OpenID Connect provider on loopback for the tests (oidc-provider, the certified
 * implementation openid-client is tested against): discovery, authorization with PKCE, token,
 * UserInfo, JWKS and RP-initiated logout, all real. Only its login page is Tally's own: a form
 * that signs in whoever it names (sub, e-mail, whether verified, the `amr` to report), so API
 * tests post it with fetch and e2e fills it in Chromium. `tamperIdTokens` re-signs the ID tokens
 * the token endpoint answers with changed claims (with the provider's own key), to show that
 * Tally refuses a wrong iss, aud or nonce even when the signature is good.
 *
 * Erasable TypeScript with no relative imports: e2e/support/local-oidc-provider.mjs runs this
 * very file with Node's type stripping.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
} from 'jose';
import Provider from 'oidc-provider';

export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Changes the claims of every ID token the token endpoint sends until set back to null. */
  tamperIdTokens: ((claims: Record<string, unknown>) => Record<string, unknown>) | null;
  /**
   * Follows an authorization URL as a browser would, signing in at the login form as `person`,
   * and answers the URL the provider redirects back to (Tally's callback with code and state).
   */
  authorize(authorizationUrl: string, person: LocalPerson): Promise<URL>;
  close(): Promise<void>;
}

export interface LocalPerson {
  sub: string;
  email?: string;
  /** Default true. */
  emailVerified?: boolean;
  /** The ID token's amr (e.g. ['pwd', 'otp']); none by default. */
  amr?: string[];
}

export interface LocalOidcOptions {
  /** Tally's PUBLIC_URL: the redirect and post-logout URIs are derived from it. */
  publicUrl: string;
  port?: number;
  clientId?: string;
  /** By default a random one. */
  clientSecret?: string;
}

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}' +
  'label{display:block;margin:.75rem 0}input[type=text],input[type=email]{width:100%;padding:.4rem}';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startLocalOidcProvider(
  options: LocalOidcOptions,
): Promise<LocalOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'local-oidc-1', alg: 'RS256', use: 'sig' };
  const signingKey = await importJWK(jwk, 'RS256');
  const clientId = options.clientId ?? 'tally';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const people = new Map<string, LocalPerson>();

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${options.publicUrl}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${options.publicUrl}/login`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      // amr (RFC 8176) in every ID token, as the login that made it says (auth/oidc/provider-mfa.ts).
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => {
        const person = people.get(sub);
        return {
          sub,
          ...(person?.email === undefined
            ? {}
            : { email: person.email, email_verified: person.emailVerified ?? true }),
          preferred_username: sub,
        };
      },
    }),
    // A first-party client: consent is implied (Tally asks for no more than sign-in needs).
    loadExistingGrant: async (ctx: {
      oidc: { client?: { clientId: string }; session?: { accountId?: string } };
    }) => {
      const grant = new provider.Grant({
        clientId: ctx.oidc.client?.clientId,
        accountId: ctx.oidc.session?.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: { Session: 60 * 60, Interaction: 10 * 60, Grant: 60 * 60, AuthorizationCode: 60 },
  });

  const local: LocalOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    tamperIdTokens: null,
    authorize: (url, person) => authorizeAs(url, person),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  provider.use(async (ctx, next) => {
    await next();
    const tamper = local.tamperIdTokens;
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path !== '/token' || tamper === null || typeof body?.id_token !== 'string') return;
    const header = decodeProtectedHeader(body.id_token);
    const claims = tamper({ ...decodeJwt(body.id_token) });
    body.id_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? jwk.kid, typ: 'JWT' })
      .sign(signingKey);
  });

  const handleProvider = provider.callback();
  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    if (url.pathname === '/health') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const interaction = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (!interaction) {
      handleProvider(request, response);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (request.method === 'GET') {
          response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              `<!doctype html><html lang="en"><head><title>Local identity provider</title>` +
                `<meta name="viewport" content="width=device-width, initial-scale=1">` +
                `<style>${PAGE_STYLE}</style></head><body><h1>Local identity provider</h1>` +
                `<form method="post" action="/interaction/${escapeHtml(details.uid)}">` +
                `<label>Username <input type="text" name="sub" required></label>` +
                `<label>E-mail <input type="email" name="email"></label>` +
                `<label><input type="checkbox" name="email_verified" checked> E-mail verified</label>` +
                `<label><input type="checkbox" name="mfa"> Used a second factor</label>` +
                `<button type="submit">Sign in</button></form></body></html>`,
            );
          return;
        }
        const form = await readForm(request);
        const sub = form.get('sub')?.trim() ?? '';
        if (sub === '') throw new Error('sub is required');
        const email = form.get('email')?.trim();
        const amr =
          form.get('amr')?.split(',').filter(Boolean) ??
          (form.has('mfa') ? ['pwd', 'otp'] : ['pwd']);
        people.set(sub, {
          sub,
          ...(email ? { email } : {}),
          emailVerified: form.has('email_verified'),
          amr,
        });
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: sub, amr } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });

  /** A cookie jar of one browser and a fetch that follows redirects within the provider. */
  async function authorizeAs(authorizationUrl: string, person: LocalPerson): Promise<URL> {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string> | undefined),
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    };
    let response = await send(authorizationUrl);
    let location = response.headers.get('location');
    if (location === null)
      throw new Error(`no redirect from the provider: ${await response.text()}`);
    const interactionUrl = new URL(location, issuer);
    const form = new URLSearchParams({ sub: person.sub, amr: (person.amr ?? []).join(',') });
    if (person.email !== undefined) form.set('email', person.email);
    if (person.emailVerified ?? true) form.set('email_verified', 'on');
    response = await send(interactionUrl.toString(), {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // The provider resumes the authorization, then redirects to Tally.
    for (let hop = 0; hop < 5; hop += 1) {
      location = response.headers.get('location');
      if (location === null) throw new Error(`the provider stopped: ${await response.text()}`);
      const next = new URL(location, issuer);
      if (next.origin !== issuer) return next;
      response = await send(next.toString());
    }
    throw new Error('too many redirects at the provider');
  }

  return local;
}

/** Tally's OIDC settings for this provider (config.ts OidcConfig), for a test app's config. */
export function oidcSettingsFor(provider: LocalOidcProvider, name = 'Local IdP') {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    name,
    scopes: 'openid profile email',
    autoRegister: true,
    only: false,
  };
}
