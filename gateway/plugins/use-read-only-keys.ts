import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { getOperationAST } from 'graphql';
import type { EarshotGatewayContext } from '../request-state.ts';

/** A `read` credential may run queries and subscriptions, never mutations (spec 5.5). */
export function useReadOnlyKeys(): GatewayPlugin {
  return {
    onExecute({ args }) {
      const { auth } = args.contextValue as unknown as EarshotGatewayContext;
      if (auth?.scope !== 'read') return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation === 'mutation') {
        const credential = auth.kind === 'oauth' ? 'This access token was granted read access only' : 'This API key is read-only';
        throw createGraphQLError(`${credential}; use a write credential to change anything`, {
          extensions: { code: 'read_only_key', http: { status: 403 } },
        });
      }
    },
  };
}
