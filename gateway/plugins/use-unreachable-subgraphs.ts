import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { unreachablePartResponse } from '../service-unavailable.ts';

/**
 * A subgraph that does not answer over HTTP (its process stopped, restarting
 * or not started yet in a deployment of many processes) makes the fields it
 * owes `service_unavailable`, a 503 the client may retry, as the database
 * being away does; the runtime otherwise masked the failed fetch as an
 * "Unexpected error." `INTERNAL_SERVER_ERROR`.
 */
export function useUnreachableSubgraphs(): GatewayPlugin {
  return {
    onFetch({ fetchFn, setFetchFn, executionRequest }) {
      if (!executionRequest) return;
      setFetchFn(async (...args) => {
        try {
          return await fetchFn(...args);
        } catch {
          return unreachablePartResponse('A part of the service');
        }
      });
    },
  };
}
