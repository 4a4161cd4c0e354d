import {
  OIDC_ERROR_PARAM,
  OIDC_FLOW_MINUTES,
  type MfaRequiredResponse,
  type OidcFailure as OidcFailureCode,
  oidcApi,
} from '@tally/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { endSession, isAccountDisabled, sessionOfRefreshToken } from '../refresh-tokens.js';
import type { OidcRefusal, Session } from '../service.js';
import type { OidcConfig } from '../../config.js';
import type { Clock } from '../../shared/clock.js';
import { isSecureRequest } from '../../shared/cookies.js';
import { addEndpoint } from '../../shared/endpoint.js';
import { AppError, conflict, notFound, serviceUnavailable } from '../../shared/errors.js';
import { linkOidc } from '../../account/identities.js';
import { createOidcClient, OidcFailure, type OidcIdentity } from './client.js';
import { type FlowPurpose, startFlow, takeFlow } from './flows.js';
import { providerDidMfa } from './provider-mfa.js';

/** What the auth routes lend the OIDC routes: their session cookies and sign-in service. */
export interface OidcRoutesOptions {
  clock: Clock;
  /** Null when OIDC_ISSUER is unset: every call answers 503. */
  config: OidcConfig | null;
  publicUrl: string;
  rateLimit: { max: number; timeWindow: string };
  /**
   * Signs in the account the provider vouches for (auth/service.ts oidcLogin), as a password
   * sign-in does: a session with its refresh and device cookies set, or, for an account with
   * two-factor codes on and a provider that did no MFA, the second step (auth/sign-in.ts).
   */
  signIn: (
    request: FastifyRequest,
    reply: FastifyReply,
    identity: OidcIdentity,
    autoRegister: boolean,
    providerDidMfa: boolean,
  ) => Promise<{ session: Session } | { mfa: MfaRequiredResponse }>;
  isRefusal: (error: unknown) => error is OidcRefusal;
  presentedRefreshToken: (request: FastifyRequest) => string | undefined;
  clearSession: (request: FastifyRequest, reply: FastifyReply) => void;
  sameOriginOnly: (request: FastifyRequest) => Promise<void>;
}

/**
 * The flow cookie names the server-side flow row (flows.ts). SameSite=Lax, not Strict: the
 * provider sends the browser back with a cross-site top-level GET, which carries Lax cookies and
 * not Strict ones. __Host- whenever it can be Secure, so no sibling subdomain or plain-HTTP page
 * can plant one; plain on http://localhost, on the callback's path only.
 */
const flowCookie = (request: FastifyRequest) =>
  isSecureRequest(request)
    ? { name: '__Host-tally_oidc', path: '/', secure: true }
    : { name: 'tally_oidc', path: '/api/auth/oidc', secure: false };

const NOT_CONFIGURED = 'Single sign-on is not configured on this server';

/** The page a flow comes back to when it fails. */
const pageOf = (purpose: FlowPurpose) => (purpose === 'login' ? '/login' : '/settings');

/**
 * Generic OpenID Connect (docs/decisions/080-openid-connect.md): sign-in, link and
 * re-authentication with one provider; account/identities.ts holds the rules of linking and
 * unlinking. Registered inside the auth routes' plugin, which holds @fastify/cookie and the
 * session cookies.
 */
export function registerOidcRoutes(app: FastifyInstance, options: OidcRoutesOptions): void {
  const { clock, publicUrl } = options;
  const settings = options.config;
  const client = settings ? createOidcClient(settings, publicUrl) : null;
  const config = { rateLimit: options.rateLimit };
  const configured = () => {
    if (!client || !settings) throw serviceUnavailable(NOT_CONFIGURED);
    return { client, settings };
  };
  const security = (request: FastifyRequest, event: string, message: string, extra = {}) =>
    request.log.warn({ security: event, ip: request.ip, ...extra }, message);

  /** Stores a new flow, sets its cookie and answers the provider's authorization URL. */
  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    flow: {
      purpose: FlowPurpose;
      userId: number | null;
      sessionId: string | null;
      returnTo: string;
    },
  ) {
    const { client: provider } = configured();
    // 32 random bytes each, base64url, as openid-client's randomState, randomNonce and
    // randomPKCECodeVerifier make them: openid-client itself loads only once a flow needs it.
    const checks = {
      state: random32(),
      nonce: random32(),
      codeVerifier: random32(),
    };
    let url: URL;
    try {
      url = await provider.authorizationUrl(checks);
    } catch (error) {
      request.log.error({ err: error }, 'OIDC discovery failed');
      throw serviceUnavailable(
        `${settings?.name ?? 'The provider'} could not be reached - please try again later`,
      );
    }
    const flowId = await startFlow(app.db, { ...flow, ...checks }, clock());
    const { name, path, secure } = flowCookie(request);
    reply.setCookie(name, flowId, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path,
      maxAge: OIDC_FLOW_MINUTES * 60,
    });
    return { url: url.toString() };
  }

  addEndpoint(
    app,
    oidcApi.start,
    async (request, reply) =>
      begin(request, reply, { purpose: 'login', userId: null, sessionId: null, returnTo: '/' }),
    { config },
  );

  /** The signed-in account's OIDC identity, or null when the account is gone. */
  const accountOf = (userId: number) =>
    app.db
      .selectFrom('users')
      .select(['id', 'oidc_issuer', 'oidc_subject'])
      .where('id', '=', userId)
      .executeTakeFirst();

  const sessionIdOf = (request: FastifyRequest): string => {
    if (request.user.sessionId === null) {
      throw new AppError(403, 'This call needs a signed-in session');
    }
    return request.user.sessionId;
  };

  addEndpoint(app, oidcApi.link, async (request, reply) => {
    const { settings: provider } = configured();
    const account = await accountOf(request.user.id);
    if (!account) throw notFound('Account');
    if (account.oidc_subject !== null) {
      throw conflict(`Your account is already linked to ${provider.name} - unlink it first`);
    }
    return begin(request, reply, {
      purpose: 'link',
      userId: request.user.id,
      sessionId: sessionIdOf(request),
      returnTo: '/settings',
    });
  });

  addEndpoint(app, oidcApi.reauthenticate, async (request, reply) => {
    const { settings: provider } = configured();
    const account = await accountOf(request.user.id);
    if (!account) throw notFound('Account');
    if (account.oidc_subject === null) {
      throw conflict(`No ${provider.name} account is linked to your account`);
    }
    return begin(request, reply, {
      purpose: 'reauthenticate',
      userId: request.user.id,
      sessionId: sessionIdOf(request),
      returnTo: request.body.returnTo ?? '/settings',
    });
  });

  addEndpoint(
    app,
    oidcApi.logout,
    async (request, reply) => {
      const presented = options.presentedRefreshToken(request);
      const session = presented ? await sessionOfRefreshToken(app.db, presented) : null;
      let endSessionUrl: string | null = null;
      if (session) {
        const row = await app.db
          .selectFrom('sessions')
          .select('oidc_id_token')
          .where('id', '=', session.sessionId)
          .executeTakeFirst();
        await endSession(app.db, session.sessionId, clock());
        if (client && row?.oidc_id_token)
          endSessionUrl = await client.endSessionUrl(row.oidc_id_token);
      }
      options.clearSession(request, reply);
      return { endSessionUrl };
    },
    { config, preHandler: options.sameOriginOnly },
  );

  addEndpoint(
    app,
    oidcApi.callback,
    async (request, reply) => {
      const { name, path, secure } = flowCookie(request);
      const flowId = request.cookies[name];
      if (flowId !== undefined)
        reply.clearCookie(name, { path, secure, httpOnly: true, sameSite: 'lax' });
      const fail = (failure: OidcFailureCode, purpose: FlowPurpose, detail?: string) => {
        security(request, 'oidc-failed', 'OpenID Connect sign-in refused', {
          failure,
          purpose,
          detail,
        });
        return reply.redirect(`${pageOf(purpose)}?${OIDC_ERROR_PARAM}=${failure}`, 303);
      };
      if (!client || !settings) return fail('flow_expired', 'login', 'not configured');
      const flow = await takeFlow(app.db, flowId, clock());
      if (!flow) return fail('flow_expired', 'login');
      // Checked here too (openid-client checks it again) to tell the person what went wrong.
      if (request.query.state !== flow.state) return fail('state_mismatch', flow.purpose);

      let identity: OidcIdentity;
      try {
        identity = await client.finish(new URL(request.url, publicUrl), flow);
      } catch (error) {
        if (error instanceof OidcFailure) return fail(error.failure, flow.purpose, error.message);
        throw error;
      }
      if (flow.purpose === 'login') {
        // Whether it may stand for Tally's second step is TRUST_PROVIDER_MFA's (auth/sign-in.ts).
        const providerMfa = providerDidMfa(identity.amr);
        let started: { session: Session } | { mfa: MfaRequiredResponse };
        try {
          started = await options.signIn(
            request,
            reply,
            identity,
            settings.autoRegister,
            providerMfa,
          );
        } catch (error) {
          if (options.isRefusal(error)) return fail(error.failure, 'login');
          if (isAccountDisabled(error)) return fail('account_disabled', 'login');
          throw error;
        }
        if ('mfa' in started) {
          // The login page asks for the code (the fragment never reaches a server or its logs);
          // the session made then keeps no ID token, so logging out ends only Tally's session.
          return reply.redirect(`/login#mfa=${started.mfa.mfaToken}`, 303);
        }
        const { session } = started;
        await app.db
          .updateTable('sessions')
          .set({ oidc_id_token: identity.idToken })
          .where('id', '=', session.sessionId)
          .execute();
        request.log.info({ userId: session.userId, providerMfa }, 'Signed in with OpenID Connect');
        return reply.redirect(`/login?oidc=signed-in`, 303);
      }

      // A link or re-authentication acts for the session that started it, if it still lasts.
      const now = clock();
      const open = await app.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', flow.sessionId ?? '')
        .where('user_id', '=', flow.userId ?? 0)
        .where('ended_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      const account = flow.userId === null ? undefined : await accountOf(flow.userId);
      if (!open || !account) return fail('session_ended', 'login');
      const same =
        account.oidc_issuer === identity.issuer && account.oidc_subject === identity.subject;

      if (flow.purpose === 'reauthenticate') {
        if (!same) return fail('wrong_account', flow.purpose);
        await app.db
          .updateTable('sessions')
          .set({ reauthenticated_at: now })
          .where('id', '=', open.id)
          .execute();
        security(request, 'reauthenticated', 'Identity proved again with OpenID Connect', {
          userId: account.id,
        });
        return reply.redirect(flow.returnTo, 303);
      }

      const refused = await linkOidc(app.db, now, account.id, identity);
      if (refused) return fail(refused, flow.purpose);
      security(request, 'oidc-linked', 'OpenID Connect account linked', { userId: account.id });
      return reply.redirect('/settings?oidc=linked', 303);
    },
    { config },
  );
}

const random32 = () => randomBytes(32).toString('base64url');
