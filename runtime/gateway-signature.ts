import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who is calling, as the gateway established it once per client request. */
export interface RequestAuth {
  workspaceId: string;
  kind: 'api_key' | 'oauth' | 'session';
  scope: 'read' | 'write';
  apiKeyId: string | null;
  expiresAt: string | null;
  userId: string | null;
  /** The dashboard session (`ses_…`) a cookie authenticated, so a password change can end the user's other sessions. */
  sessionId?: string | null;
}

/** What the gateway vouches for on every subgraph request. */
export interface GatewayContext {
  auth: RequestAuth | null;
  requestId: string;
  /** The address the client connected from, as the public server saw the socket (sign-in limits count per address). */
  clientAddress?: string | null;
}

/** The GraphQL request extension that carries the signed context to a subgraph. */
export const signedContextExtension = 'earshot';

interface SignedPayload {
  query: string;
  variables: Record<string, unknown> | undefined;
  context: GatewayContext;
}

function hmac(secret: string, payload: SignedPayload): Buffer {
  const variables = payload.variables && Object.keys(payload.variables).length > 0 ? payload.variables : null;
  // The subgraph reads the JSON the gateway wrote, and JSON keeps the order
  // of keys: serialising the parsed values again yields the same text, so
  // no canonical (sorted) form is needed.
  return createHmac('sha256', secret).update(JSON.stringify([payload.query, variables, payload.context])).digest();
}

/**
 * The value of `extensions.earshot` for a subgraph request: the context and
 * an HMAC over it, the query and the variables, so a subgraph can refuse
 * anything the gateway did not send.
 */
export function signSubgraphRequest(secret: string, payload: SignedPayload) {
  return { context: payload.context, signature: hmac(secret, payload).toString('base64url') };
}

/** The context a subgraph may trust, or null when the request was not signed by the gateway. */
export function verifySubgraphRequest(
  secret: string,
  params: { query?: unknown; variables?: unknown; extensions?: unknown },
): GatewayContext | null {
  const extension = (params.extensions as Record<string, unknown> | undefined)?.[signedContextExtension] as
    | { context?: GatewayContext; signature?: unknown }
    | undefined;
  if (!extension || typeof extension.signature !== 'string' || !extension.context || typeof params.query !== 'string') {
    return null;
  }
  const expected = hmac(secret, {
    query: params.query,
    variables: (params.variables ?? undefined) as Record<string, unknown> | undefined,
    context: extension.context,
  });
  const given = Buffer.from(extension.signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? extension.context : null;
}
