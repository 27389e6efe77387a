import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as oidc from 'openid-client';
import { ApiError } from '@/domain/api-error';
import { emailSchema } from '@/domain/auth';
import { isLoopbackHost, type PortalConfig, type SsoSettings } from '@/server/config';
import { ssoLoginLifetimeMs } from './portal-auth';
import { setSsoCookie, ssoStatesOf } from './session-cookie';
import { sameToken, tokenDigest } from './tokens';

export interface SsoRoutesOptions {
  config: PortalConfig;
}

/** Why a single sign-on did not sign anyone in: the page the browser lands on says so. */
type SsoRefusal = 'no_account' | 'unverified_email' | 'expired' | 'failed';

/** The provider's metadata, read once (and again after a failure). */
function providerConfiguration(settings: SsoSettings): () => Promise<oidc.Configuration> {
  let discovered: Promise<oidc.Configuration> | null = null;
  return () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        oidc.ClientSecretBasic(settings.clientSecret),
        // Plain http only for a provider on this machine (config.ts allows no other).
        isLoopbackHost(new URL(settings.issuer).hostname) &&
          new URL(settings.issuer).protocol === 'http:'
          ? { execute: [oidc.allowInsecureRequests] }
          : {},
      )
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };
}

/**
 * Single sign-on through OpenID Connect (decision 026): the authorization code flow with PKCE,
 * `state` bound to this browser by a cookie and `nonce` checked in the ID token (openid-client).
 * The provider only says who someone is: they sign in when an admin made an account for that
 * e-mail address (verified by the provider) and it is enabled; the session is the portal's own.
 *
 * GET /api/auth/oidc/start redirects to the provider; GET /api/auth/oidc/callback is where the
 * provider sends the browser back (register `<PORTAL_PUBLIC_URL>/api/auth/oidc/callback` there).
 */
const routes: FastifyPluginAsync<SsoRoutesOptions> = async (app, { config }) => {
  const auth = app.accounts;
  const settings = config.auth.sso;
  const configuration = settings ? providerConfiguration(settings) : null;
  app.addHook('onRequest', async () => {
    if (!configuration) {
      throw new ApiError(
        'not_found',
        'Single sign-on is not set up on this portal (OIDC_ISSUER). Sign in with your e-mail address and password.',
      );
    }
  });

  const callbackUrl = (request: FastifyRequest) =>
    `${config.auth.publicOrigin ?? `${request.protocol}://${request.host}`}${app.prefix}/callback`;

  async function provider(): Promise<oidc.Configuration> {
    if (!configuration) throw new Error('single sign-on is not configured');
    try {
      return await configuration();
    } catch (error) {
      throw new ApiError(
        'upstream_unreachable',
        `The sign-in provider at ${settings?.issuer} could not be reached (${error instanceof Error ? error.message.slice(0, 120) : 'no answer'}). Try again in a minute, or sign in with your password.`,
      );
    }
  }

  app.get('/start', async (request, reply) => {
    const server = await provider();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await auth.ssoLogins.begin(tokenDigest(state), { nonce, codeVerifier, createdAt: auth.now() });
    setSsoCookie(request, reply, state);
    const url = oidc.buildAuthorizationUrl(server, {
      redirect_uri: callbackUrl(request),
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return reply.redirect(url.href, 302);
  });

  function refuse(reply: FastifyReply, request: FastifyRequest, reason: SsoRefusal) {
    setSsoCookie(request, reply, null);
    return reply.redirect(`/?sso_error=${reason}`, 302);
  }

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/callback',
    async (request, reply) => {
      const given = request.query.state;
      const state = typeof given === 'string' ? given : '';
      // The browser that started this sign-in must be the one finishing it (login CSRF).
      const cookieState = ssoStatesOf(request).find((value) => sameToken(value, state));
      const login =
        cookieState && state !== ''
          ? await auth.ssoLogins.take(tokenDigest(state), auth.now() - ssoLoginLifetimeMs)
          : undefined;
      const address = request.ip;
      if (!login) {
        auth.audit(
          'sign_in_failed',
          { email: null, address, reason: 'sso_state', method: 'sso' },
          request,
        );
        return refuse(reply, request, 'expired');
      }
      /** The e-mail claims, from the ID token or the UserInfo endpoint. */
      let claims: { email: unknown; verified: unknown } | undefined;
      try {
        const server = await provider();
        const current = new URL(request.url, callbackUrl(request));
        const tokens = await oidc.authorizationCodeGrant(server, current, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (!idToken) throw new Error('the provider sent no ID token');
        // Providers that keep the ID token small give the address at the UserInfo endpoint
        // (OpenID Connect Core §5.4: scope claims there unless asked for in the ID token).
        const profile =
          idToken.email === undefined
            ? await oidc.fetchUserInfo(server, tokens.access_token, idToken.sub)
            : idToken;
        claims = { email: profile.email, verified: profile.email_verified };
      } catch (error) {
        auth.audit(
          'sign_in_failed',
          {
            email: null,
            address,
            reason: 'sso_error',
            method: 'sso',
            detail: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
          },
          request,
        );
        return refuse(reply, request, 'failed');
      }
      const email = emailSchema.safeParse(claims?.email);
      if (!email.success || claims?.verified !== true) {
        auth.audit(
          'sign_in_failed',
          {
            email: email.success ? email.data : null,
            address,
            reason: 'sso_unverified_email',
            method: 'sso',
          },
          request,
        );
        return refuse(reply, request, 'unverified_email');
      }
      const user = await auth.users.byEmail(email.data);
      if (!user || user.disabled) {
        auth.audit(
          'sign_in_failed',
          {
            email: email.data,
            userId: user?.id ?? null,
            address,
            reason: user ? 'disabled' : 'unknown_account',
            method: 'sso',
          },
          request,
        );
        return refuse(reply, request, 'no_account');
      }
      await auth.signIn(request, reply, user, 'sso');
      setSsoCookie(request, reply, null);
      return reply.redirect('/', 302);
    },
  );
};

export const ssoRoutes = fp(routes, {
  name: 'sso-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['accounts'],
});
