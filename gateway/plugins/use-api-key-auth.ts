import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { getOperationAST, parse } from 'graphql';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { sameSecret } from '../../runtime/same-secret.ts';
import { bearerChallenge, bearerToken, sessionCookie } from '../request-state.ts';
import { lookUpInDatabase } from '../service-unavailable.ts';
import { selectsOnlyPublicRootFields } from './public-root-fields.ts';

export interface ApiKeyAuthOptions {
  /**
   * Resolves a bearer secret, an API key or an OAuth access token, to the
   * workspace and scope it acts as (and the user, for a token); undefined
   * when it is not live. A database that is away makes it 503 `service_unavailable`.
   */
  authenticate(secret: string): Promise<RequestAuth | undefined>;
  /**
   * Root fields that authenticate their callers themselves and so run
   * without a credential, as `Mutation.receiveStripeWebhook` (the payment
   * provider signs its webhook). An operation without a credential runs only
   * when every root field it selects is listed, and then with `auth` null,
   * or the session's when a session cookie comes with it and proves itself
   * (its CSRF token on a mutation), so a public route may know who is signed
   * in (accepting an invitation). Default: none.
   */
  publicRootFields?: readonly string[];
  /** Resolves the `earshot_session` cookie to what it acts as and the CSRF token its changes must repeat; undefined when it is not live. */
  authenticateSession?(token: string): Promise<{ auth: RequestAuth; csrfToken: string } | undefined>;
}

function selectsOnlyPublicFields(params: { query?: unknown; operationName?: unknown } | undefined, publicFields: ReadonlySet<string>): boolean {
  if (publicFields.size === 0 || typeof params?.query !== 'string') return false;
  let operation;
  try {
    operation = getOperationAST(parse(params.query), typeof params.operationName === 'string' ? params.operationName : undefined);
  } catch {
    return false;
  }
  return operation != null && selectsOnlyPublicRootFields(operation, publicFields);
}

/**
 * Whether the operation may change anything: mutations (and anything
 * unreadable, to be safe) need the CSRF token. Queries and subscriptions
 * only read; a graphql-ws connection sends no header at all, and its upgrade
 * carries the cookie only from Earshot's own origin (the public server checks).
 */
function isMutation(params: { query?: unknown; operationName?: unknown } | undefined): boolean {
  if (typeof params?.query !== 'string') return true;
  try {
    const operation = getOperationAST(parse(params.query), typeof params.operationName === 'string' ? params.operationName : undefined);
    return !operation || operation.operation === 'mutation';
  } catch {
    return true;
  }
}

function csrfTokenMatches(context: { request?: Request }, expected: string): boolean {
  return sameSecret(context.request?.headers.get('x-csrf-token') ?? '', expected);
}

/** A 401 whose challenge says whether a credential was refused or none came (`credentialSent`). */
const unauthorized = (message: string, credentialSent: boolean) =>
  createGraphQLError(message, {
    extensions: { code: 'unauthorized', http: { status: 401, headers: { 'www-authenticate': bearerChallenge(credentialSent) } } },
  });

/**
 * Authentication happens here, once per client operation: the bearer secret
 * (HTTP header or graphql-ws `connectionParams.authorization`: an API key or
 * an OAuth access token), else the `earshot_session` cookie (of the HTTP
 * request or of the graphql-ws upgrade), becomes `context.auth`, which later
 * plugins read and the subgraphs receive signed.
 */
export function useApiKeyAuth(options: ApiKeyAuthOptions): GatewayPlugin {
  const publicFields = new Set(options.publicRootFields ?? []);
  return {
    async onContextBuilding({ context, extendContext }) {
      const token = bearerToken(context as never);
      const params = (context as { params?: { query?: unknown; operationName?: unknown } }).params;
      const publicOnly = !token && selectsOnlyPublicFields(params, publicFields);
      const sessionToken = token ? undefined : sessionCookie(context as never);
      if (sessionToken && options.authenticateSession) {
        const session = await lookUpInDatabase(options.authenticateSession(sessionToken));
        const proven = session && (!isMutation(params) || csrfTokenMatches(context as never, session.csrfToken));
        // A public operation (opening an invitation, a sign-in link) runs for the signed-in person only when the session proves itself; otherwise for nobody.
        if (publicOnly) {
          extendContext({ auth: proven ? session.auth : null } as never);
          return;
        }
        if (!session) throw unauthorized('The session has ended; sign in again', true);
        if (!proven) {
          throw createGraphQLError('A change made with a session cookie must repeat the earshot_csrf cookie in X-CSRF-Token', {
            extensions: { code: 'forbidden', http: { status: 403 } },
          });
        }
        extendContext({ auth: session.auth } as never);
        return;
      }
      if (publicOnly) {
        extendContext({ auth: null } as never);
        return;
      }
      if (!token) throw unauthorized('Send an API key as "Authorization: Bearer mk_live_…"', (context as { request?: Request }).request?.headers.has('authorization') ?? false);
      const auth = await lookUpInDatabase(options.authenticate(token));
      if (!auth) throw unauthorized('The API key or access token is invalid, expired or revoked', true);
      extendContext({ auth } as never);
    },
  };
}
