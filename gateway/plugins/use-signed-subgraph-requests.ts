import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { serializeExecutionRequest } from '@graphql-tools/executor-common';
import { signSubgraphRequest, signedContextExtension } from '../../runtime/gateway-signature.ts';
import type { EarshotGatewayContext } from '../request-state.ts';

/**
 * Every request the gateway sends a subgraph (HTTP or graphql-ws) carries the
 * caller's context in `extensions.earshot`, signed with the deployment's
 * secret; subgraphs refuse requests without a valid signature.
 */
export function useSignedSubgraphRequests(options: { secret: string }): GatewayPlugin {
  return {
    onSubgraphExecute({ executionRequest }) {
      const context = (executionRequest.context ?? {}) as Partial<EarshotGatewayContext>;
      const { query, variables } = serializeExecutionRequest({
        executionRequest: { ...executionRequest, extensions: undefined },
      });
      executionRequest.extensions = {
        ...executionRequest.extensions,
        [signedContextExtension]: signSubgraphRequest(options.secret, {
          query: query as string,
          variables: variables as Record<string, unknown> | undefined,
          context: { auth: context.auth ?? null, requestId: context.requestId ?? 'internal', clientAddress: context.clientAddress ?? null },
        }),
      };
    },
  };
}
