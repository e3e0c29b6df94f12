import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { serializeExecutionRequest } from '@graphql-tools/executor-common';
import type { ExecutionRequest } from '@graphql-tools/utils';
import { signSubgraphRequest, signedContextExtension } from '../../runtime/gateway-signature.ts';
import { vouchedContext } from '../request-state.ts';

/** The request with the caller's context and its signature in `extensions.earshot`. */
function signed(secret: string, executionRequest: ExecutionRequest): ExecutionRequest {
  const { query, variables } = serializeExecutionRequest({ executionRequest: { ...executionRequest, extensions: undefined } });
  return {
    ...executionRequest,
    extensions: {
      ...executionRequest.extensions,
      [signedContextExtension]: signSubgraphRequest(secret, {
        query: query as string,
        variables: variables as Record<string, unknown> | undefined,
        context: vouchedContext(executionRequest.context),
      }),
    },
  };
}

/**
 * Every request the gateway sends a subgraph (HTTP, graphql-ws or
 * in-process) carries the caller's context in `extensions.earshot`, signed
 * with the deployment's secret; subgraphs refuse requests without a valid
 * signature. The request is signed as it is sent, by the executor chosen
 * so far, so one a later plugin answers from memory (keyword terms) is
 * never signed.
 */
export function useSignedSubgraphRequests(options: { secret: string }): GatewayPlugin {
  return {
    onSubgraphExecute({ executor, setExecutor }) {
      setExecutor((request) => executor(signed(options.secret, request)));
    },
  };
}
