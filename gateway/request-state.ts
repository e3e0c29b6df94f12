import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayContext, RequestAuth } from '../runtime/gateway-signature.ts';
import { cookieValue, sessionCookieName } from '../runtime/session-cookies.ts';

/**
 * What the gateway's plugins establish about one client operation and put
 * on the GraphQL context for the plugins after them and for signing.
 */
export interface EarshotGatewayContext {
  requestId: string;
  auth: RequestAuth | null;
  clientAddress: string | null;
}

/** What the gateway vouches for to a subgraph about a request with this GraphQL context (signed, or handed over in-process). */
export function vouchedContext(context: unknown): GatewayContext {
  const established = (context ?? {}) as Partial<EarshotGatewayContext>;
  return { auth: established.auth ?? null, requestId: established.requestId ?? 'internal', clientAddress: established.clientAddress ?? null };
}

/** `Authorization` of an object of connection parameters or headers, in either case. */
const authorizationOf = (params: unknown) =>
  params && typeof params === 'object' ? ((params as Record<string, unknown>).authorization ?? (params as Record<string, unknown>).Authorization) : undefined;

/**
 * The credential a client sent: the HTTP header, or on graphql-ws its
 * `connectionParams` (`authorization` itself, or inside `headers` as Apollo
 * and Hasura clients send it), else the `Authorization` header of the
 * upgrade request (what clients that cannot set connection parameters send;
 * a browser page cannot set it, so it carries no cross-site risk).
 */
export function bearerToken(context: {
  request?: Request;
  connectionParams?: Record<string, unknown>;
  upgradeRequest?: { headers: IncomingHttpHeaders };
}): string | undefined {
  const params = context.connectionParams ?? {};
  const header =
    context.request?.headers.get('authorization') ?? authorizationOf(params) ?? authorizationOf(params.headers) ?? context.upgradeRequest?.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The value of the `earshot_session` cookie, if any: of an HTTP request, or
 * of the upgrade request of a graphql-ws connection (`upgradeRequest`, which
 * the public server admits only from its own origin).
 */
export function sessionCookie(context: { request?: Request; upgradeRequest?: { headers: IncomingHttpHeaders } }): string | undefined {
  return cookieValue(context.request?.headers.get('cookie') ?? context.upgradeRequest?.headers.cookie, sessionCookieName);
}

/**
 * The challenge a 401 carries (RFC 9110 11.6.1: a 401 must name one), in
 * the bearer scheme's words (RFC 6750 3.1): `invalid_token` when a
 * credential was sent and refused, no error code when none was.
 */
export function bearerChallenge(request: Request): string {
  const sent = request.headers.get('authorization') !== null || sessionCookie({ request }) !== undefined;
  return sent ? 'Bearer realm="earshot", error="invalid_token"' : 'Bearer realm="earshot"';
}
