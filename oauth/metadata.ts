import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { sameLoopbackOrigin } from '../runtime/loopback-origin.ts';

/** Where the authorization server's endpoints answer on the public port; the issuer is `EARSHOT_PUBLIC_URL`. */
export const oauthPaths = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  signIn: '/oauth/sign-in',
  magicLink: '/oauth/magic-link',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
} as const;

/** Whether a request path belongs to the authorization server (its endpoints and its `/.well-known/` documents). */
export const isOAuthPath = (path: string) => path.startsWith('/oauth/') || path.startsWith('/.well-known/oauth-');

export const oauthScopes = ['read', 'write'];

/** RFC 8414: what a client learns before it registers. Every client is public, so `none` is the only client authentication. */
export function authorizationServerMetadata(issuer: string): OAuthMetadata {
  return {
    issuer,
    authorization_endpoint: issuer + oauthPaths.authorize,
    token_endpoint: issuer + oauthPaths.token,
    registration_endpoint: issuer + oauthPaths.register,
    revocation_endpoint: issuer + oauthPaths.revoke,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: oauthScopes,
    service_documentation: `${issuer}/v1/openapi.json`,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * RFC 9728, for a resource on this server: the whole API at the issuer, or a
 * part of it such as `/mcp`, which MCP clients look up at
 * `/.well-known/oauth-protected-resource/mcp`. A token is good for all of them.
 * `base` is where the client found the resource (`resourceBase`).
 */
export function protectedResourceMetadata(issuer: string, resourcePath = '', base = issuer): OAuthProtectedResourceMetadata {
  return {
    resource: base + resourcePath,
    authorization_servers: [issuer],
    scopes_supported: oauthScopes,
    bearer_methods_supported: ['header'],
    resource_name: resourcePath === '/mcp' ? 'Earshot MCP server' : 'Earshot API',
    resource_documentation: `${issuer}/v1/openapi.json`,
  };
}

/**
 * Where the resources of this server are, for a client that reached it at
 * `reachedOrigin`: the issuer, or the issuer under the loopback name the
 * client used when the issuer is on the loopback interface (with
 * `EARSHOT_PUBLIC_URL` unset it is `http://localhost:PORT`, and a client given
 * `http://127.0.0.1:PORT/mcp` is at the same server). RFC 9728 3.3: a
 * resource's metadata names the resource as the client derived the
 * document's address from it, or the client must not use it (the MCP SDK's
 * client stops there); the authorization server stays the issuer.
 */
export function resourceBase(issuer: string, reachedOrigin: string): string {
  const { origin, pathname } = new URL(issuer);
  return reachedOrigin !== origin && sameLoopbackOrigin(reachedOrigin, origin) ? reachedOrigin + pathname.replace(/\/$/, '') : issuer;
}

/** Where a resource's metadata document is (RFC 9728 3.1): the well-known path, then the resource's own path. */
export const protectedResourceMetadataUrl = (issuer: string, resourcePath = '') => issuer + oauthPaths.protectedResourceMetadata + resourcePath;

/** RFC 8707: a client may name a resource, and it must be one this server serves (the issuer or a path under it, under a loopback alias of a loopback issuer too). */
export function isOwnResource(issuer: string, resource: URL): boolean {
  const base = resourceBase(issuer, resource.origin);
  const named = resource.href.replace(/#.*$/, '').replace(/\/$/, '');
  return !resource.search && (named === base || named.startsWith(`${base}/`));
}
