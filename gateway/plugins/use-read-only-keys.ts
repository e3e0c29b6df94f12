import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { getOperationAST } from 'graphql';
import type { EarshotGatewayContext } from '../request-state.ts';
import { selectsOnlyPublicRootFields } from './public-root-fields.ts';

/**
 * A `read` credential may run queries and subscriptions, never mutations
 * (spec 5.5); a mutation of public root fields only (the Slack install's
 * callback, a sign-in) needs no credential, so one sent with it changes nothing.
 */
export function useReadOnlyKeys(options: { publicRootFields?: readonly string[] } = {}): GatewayPlugin {
  const publicFields = new Set(options.publicRootFields ?? []);
  return {
    onExecute({ args }) {
      const { auth } = args.contextValue as unknown as EarshotGatewayContext;
      if (auth?.scope !== 'read') return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation === 'mutation' && !selectsOnlyPublicRootFields(operation, publicFields)) {
        const credential = auth.kind === 'oauth' ? 'This access token was granted read access only' : 'This API key is read-only';
        throw createGraphQLError(`${credential}; use a write credential to change anything`, {
          extensions: { code: 'read_only_key', http: { status: 403 } },
        });
      }
    },
  };
}
