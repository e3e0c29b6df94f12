import type { RequestAuth } from '../runtime/gateway-signature.ts';

/**
 * What the gateway's plugins establish about one client operation and put
 * on the GraphQL context for the plugins after them and for signing.
 */
export interface EarshotGatewayContext {
  requestId: string;
  auth: RequestAuth | null;
  clientAddress: string | null;
}

/**
 * The header carrying the client's address from the public server (which
 * sets it from the socket on every request, over whatever the client sent)
 * through the REST facade to the gateway.
 */
export const clientAddressHeader = 'x-earshot-client-address';

/** The credential a client sent: the HTTP header, or `connectionParams` on graphql-ws. */
export function bearerToken(context: {
  request?: Request;
  connectionParams?: Record<string, unknown>;
}): string | undefined {
  const params = context.connectionParams ?? {};
  const header =
    context.request?.headers.get('authorization') ??
    (params.authorization as string | undefined) ??
    (params.Authorization as string | undefined);
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** The value of the `earshot_session` cookie of an HTTP request, if any. */
export function sessionCookie(context: { request?: Request }): string | undefined {
  const header = context.request?.headers.get('cookie') ?? '';
  const match = /(?:^|;\s*)earshot_session=([^;\s]+)/.exec(header);
  return match?.[1];
}
