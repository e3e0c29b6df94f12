import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { bearerToken } from '../request-state.ts';

export interface ApiKeyAuthOptions {
  /** Resolves a bearer secret to the workspace and scope it acts as; undefined when it is not live. */
  authenticate(secret: string): Promise<RequestAuth | undefined>;
}

const unauthorized = (message: string) =>
  createGraphQLError(message, { extensions: { code: 'unauthorized', http: { status: 401 } } });

/**
 * Authentication happens here, once per client operation: the bearer secret
 * (HTTP header or graphql-ws `connectionParams.authorization`) becomes
 * `context.auth`, which later plugins read and the subgraphs receive signed.
 */
export function useApiKeyAuth(options: ApiKeyAuthOptions): GatewayPlugin {
  return {
    async onContextBuilding({ context, extendContext }) {
      const token = bearerToken(context as never);
      if (!token) throw unauthorized('Send an API key as "Authorization: Bearer mk_live_…"');
      const auth = await options.authenticate(token);
      if (!auth) throw unauthorized('The API key is invalid, expired or revoked');
      extendContext({ auth } as never);
    },
  };
}
