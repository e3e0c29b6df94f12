import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { getOperationAST, Kind, parse } from 'graphql';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { bearerToken } from '../request-state.ts';
import { lookUpInDatabase } from '../service-unavailable.ts';

export interface ApiKeyAuthOptions {
  /** Resolves a bearer secret to the workspace and scope it acts as; undefined when it is not live. A database that is away makes it 503 `service_unavailable`. */
  authenticate(secret: string): Promise<RequestAuth | undefined>;
  /**
   * Root fields that authenticate their callers themselves and so run
   * without a credential, as `Mutation.receiveStripeWebhook` (the payment
   * provider signs its webhook). An operation without a credential runs only
   * when every root field it selects is listed, and then with `auth` null.
   * Default: none.
   */
  publicRootFields?: readonly string[];
}

const rootTypeNames = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

function selectsOnlyPublicFields(params: { query?: unknown; operationName?: unknown } | undefined, publicFields: ReadonlySet<string>): boolean {
  if (publicFields.size === 0 || typeof params?.query !== 'string') return false;
  let operation;
  try {
    operation = getOperationAST(parse(params.query), typeof params.operationName === 'string' ? params.operationName : undefined);
  } catch {
    return false;
  }
  if (!operation) return false;
  const rootType = rootTypeNames[operation.operation];
  const selections = operation.selectionSet.selections;
  return selections.length > 0 && selections.every((selection) => selection.kind === Kind.FIELD && publicFields.has(`${rootType}.${selection.name.value}`));
}

const unauthorized = (message: string) =>
  createGraphQLError(message, { extensions: { code: 'unauthorized', http: { status: 401 } } });

/**
 * Authentication happens here, once per client operation: the bearer secret
 * (HTTP header or graphql-ws `connectionParams.authorization`) becomes
 * `context.auth`, which later plugins read and the subgraphs receive signed.
 */
export function useApiKeyAuth(options: ApiKeyAuthOptions): GatewayPlugin {
  const publicFields = new Set(options.publicRootFields ?? []);
  return {
    async onContextBuilding({ context, extendContext }) {
      const token = bearerToken(context as never);
      if (!token && selectsOnlyPublicFields((context as { params?: { query?: unknown; operationName?: unknown } }).params, publicFields)) {
        extendContext({ auth: null } as never);
        return;
      }
      if (!token) throw unauthorized('Send an API key as "Authorization: Bearer mk_live_…"');
      const auth = await lookUpInDatabase(options.authenticate(token));
      if (!auth) throw unauthorized('The API key is invalid, expired or revoked');
      extendContext({ auth } as never);
    },
  };
}
