import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { serializeExecutionRequest } from '@graphql-tools/executor-common';
import { createGraphQLError, type ExecutionResult, type Executor, getOperationASTFromRequest } from '@graphql-tools/utils';
import type { GatewayContext } from '../../runtime/gateway-signature.ts';
import type { SubgraphRequest, SubgraphResult } from '../../subgraphs/subgraph-server.ts';

/** A subgraph answering without the network: its own execution. */
export interface InProcessSubgraph {
  /** A signed subgraph request, its signature checked. */
  execute(request: SubgraphRequest): Promise<SubgraphResult>;
  /** A query or mutation whose context the gateway gives directly (use-in-process-operations.ts). */
  executeVouched(request: SubgraphRequest, context: GatewayContext): Promise<SubgraphResult>;
}

/** A subgraph's errors as GraphQL errors, as the HTTP executor makes them of a JSON body. */
export const graphQLErrorsOf = (errors: NonNullable<SubgraphResult['errors']>) =>
  errors.map(({ message, ...rest }) => createGraphQLError(message, rest as Parameters<typeof createGraphQLError>[1]));

/**
 * When the gateway and a subgraph share a process (the all-in-one role),
 * queries and mutations for that subgraph go straight to its execution
 * instead of through a loopback HTTP request: the request and the result
 * pass as objects, not written to JSON and parsed back on each side (for a
 * page of 50 mentions, a tenth of the REST path's CPU time). Errors become
 * GraphQL errors as the HTTP executor makes them of a JSON body.
 * Subscriptions travel over graphql-ws and are untouched; so is every
 * subgraph at an address this map does not name.
 */
export function useInProcessSubgraphs(subgraphs: Record<string, InProcessSubgraph>): GatewayPlugin {
  return {
    onSubgraphExecute({ transportEntry, executionRequest, setExecutor }) {
      const subgraph = transportEntry ? subgraphs[transportEntry.location!] : undefined;
      if (!subgraph || getOperationASTFromRequest(executionRequest).operation === 'subscription') return;
      const execute: Executor = async (request) => {
        const { query, variables, operationName, extensions } = serializeExecutionRequest({ executionRequest: request });
        const { errors, ...result } = await subgraph.execute({ query: query as string, variables, operationName, extensions });
        return (errors ? { ...result, errors: graphQLErrorsOf(errors) } : result) as ExecutionResult;
      };
      setExecutor(execute);
    },
  };
}
