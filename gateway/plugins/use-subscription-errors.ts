import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { GraphQLError } from 'graphql';

interface SubgraphError {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/**
 * The errors a subgraph puts in a subscription's events (a refused filter,
 * a subscriber dropped for falling behind) reach the gateway over
 * graphql-ws as plain objects, which the runtime would mask as unexpected
 * errors. This makes them GraphQL errors again, message and code kept, as
 * a query's errors arrive.
 */
export function useSubscriptionErrors(): GatewayPlugin {
  const revive = (error: GraphQLError | SubgraphError) =>
    error instanceof GraphQLError ? error : createGraphQLError(error.message, { path: error.path, extensions: error.extensions });
  return {
    onSubscribe() {
      return {
        onSubscribeResult() {
          return {
            onNext({ result, setResult }) {
              if (!result.errors?.some((error) => !(error instanceof GraphQLError))) return;
              setResult({ ...result, errors: result.errors.map(revive) });
            },
          };
        },
      };
    },
  };
}
