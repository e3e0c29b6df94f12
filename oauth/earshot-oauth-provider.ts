import {
  CustomOAuthError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock } from '../runtime/clock.ts';
import { loopbackHostnames } from '../runtime/loopback-origin.ts';
import type { Sql } from '../runtime/database.ts';
import {
  authenticateOAuthToken,
  codeChallengeFor,
  exchangeAuthorizationCode,
  findOAuthClient,
  insertOAuthClient,
  OAuthGrantError,
  type OAuthLifetimes,
  type OAuthTokenSet,
  refreshOAuthTokens,
  revokeOAuthToken,
  scopeText,
  unstorableText,
} from '../subgraphs/team/index.ts';
import { isOwnResource, oauthScopes } from './metadata.ts';

export interface EarshotOAuthProviderOptions {
  sql: Sql;
  clock: Clock;
  issuer: string;
  lifetimes: OAuthLifetimes;
  /** The browser's part of an authorization request: sign-in and consent. */
  authorize: OAuthServerProvider['authorize'];
}

const protocolErrors = { invalid_grant: InvalidGrantError, invalid_scope: InvalidScopeError, invalid_request: InvalidRequestError };

/** The team subgraph's refusals as the MCP SDK's OAuth errors, which its handlers answer in OAuth's JSON. */
async function inProtocolTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthGrantError) throw new protocolErrors[error.code](error.message);
    throw error;
  }
}

/**
 * Why a redirect URI cannot be registered, if it cannot: a code sent over
 * plain http to another host can be read on the way, so http is for the
 * loopback interface only (OAuth 2.1 2.3.1 and 7.5, RFC 8252 7.3; the MCP
 * authorization spec: localhost or https), and a fragment is never allowed
 * (RFC 6749 3.1.2). Native apps' own schemes (RFC 8252 7.1) are welcome.
 */
function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return 'is not a URL';
  const url = new URL(uri);
  if (uri.includes('#')) return 'must not have a fragment';
  if (url.protocol === 'http:' && !loopbackHostnames.has(url.hostname)) return 'must use https, or http on a loopback address only';
  return undefined;
}

const tokenResponse = (tokens: OAuthTokenSet): OAuthTokens => ({
  access_token: tokens.accessToken,
  token_type: 'Bearer',
  expires_in: tokens.expiresInSeconds,
  refresh_token: tokens.refreshToken,
  scope: scopeText(tokens.scope),
});

/**
 * The MCP SDK's `OAuthServerProvider` over the team subgraph's clients,
 * codes, grants and tokens. The SDK's handlers parse and check the protocol
 * (registration metadata, the authorization request, PKCE S256, client
 * identification, the token and revocation requests); the subgraph stores
 * everything hashed and decides who may have what.
 */
export function earshotOAuthProvider(options: EarshotOAuthProviderOptions): OAuthServerProvider {
  const { sql, clock, issuer, lifetimes } = options;
  const checkResource = (resource: URL | undefined) => {
    if (resource && !isOwnResource(issuer, resource)) throw new InvalidTargetError(`The resource must be ${issuer} or a path under it`);
    return resource?.href;
  };
  return {
    clientsStore: {
      async getClient(clientId) {
        return (await findOAuthClient(sql, clientId))?.metadata as OAuthClientInformationFull | undefined;
      },
      /**
       * Every client is registered public (RFC 7591 3.2.1 lets the server
       * replace what was asked for): no secret is issued, so none is kept,
       * and the code flow is the only one.
       */
      async registerClient(client) {
        // The metadata is stored as jsonb and its name as text, which hold no NUL character and jsonb no lone surrogate.
        const unstorable = unstorableText(client);
        if (unstorable) throw new InvalidClientMetadataError(`${unstorable.path.join('.')}: ${unstorable.problem}`);
        const { client_secret: _secret, client_secret_expires_at: _expiry, scope: asked, ...metadata } = client as OAuthClientInformationFull;
        // RFC 7591 2: the scope registered is what the client may ask for, so it names Earshot's scopes only.
        const scope = asked?.split(' ').filter((each) => oauthScopes.includes(each)).join(' ');
        if (metadata.redirect_uris.length === 0) throw new InvalidClientMetadataError('redirect_uris: name at least one');
        for (const uri of metadata.redirect_uris) {
          const problem = redirectUriProblem(uri);
          if (problem) throw new CustomOAuthError('invalid_redirect_uri', `redirect_uris: ${uri} ${problem}`);
        }
        const registered: OAuthClientInformationFull = {
          ...metadata,
          ...(scope ? { scope } : {}),
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        };
        await insertOAuthClient(sql, { id: registered.client_id, name: registered.client_name ?? null, metadata: registered });
        return registered;
      },
    },
    authorize: (client, params, res) => inProtocolTerms(() => options.authorize(client, params, res)),
    challengeForAuthorizationCode: (client, code) => inProtocolTerms(() => codeChallengeFor(sql, client.client_id, code, clock.now())),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      inProtocolTerms(async () =>
        tokenResponse(await exchangeAuthorizationCode(sql, { clientId: client.client_id, code, redirectUri, resource: checkResource(resource) }, lifetimes, clock.now())),
      ),
    exchangeRefreshToken: (client, refreshToken, scopes, resource) =>
      inProtocolTerms(async () => {
        checkResource(resource);
        return tokenResponse(await refreshOAuthTokens(sql, { clientId: client.client_id, refreshToken, scopes }, lifetimes, clock.now()));
      }),
    async verifyAccessToken(token) {
      const live = await authenticateOAuthToken(sql, token, clock.now());
      if (!live) throw new InvalidTokenError('The access token is invalid, expired or revoked');
      return {
        token,
        clientId: live.clientId,
        scopes: scopeText(live.scope).split(' '),
        expiresAt: Math.floor(live.expiresAt.getTime() / 1000),
        extra: { userId: live.userId, workspaceId: live.workspaceId },
      };
    },
    revokeToken: (client, request) => revokeOAuthToken(sql, { clientId: client.client_id, token: request.token }, clock.now()),
  };
}
