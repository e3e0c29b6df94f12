import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';

/** Answers a subgraph request without the network: the subgraph's own handler, signature check included. */
export type InProcessSubgraph = (url: string, init: RequestInit) => Promise<Response>;

/**
 * When the gateway and a subgraph share a process (the all-in-one role),
 * queries and mutations for that subgraph go straight to its handler instead
 * of through a loopback HTTP connection. Subscriptions travel over graphql-ws
 * and are not fetches, so they are untouched; so is every subgraph at an
 * address this map does not name.
 */
export function useInProcessSubgraphs(subgraphs: Record<string, InProcessSubgraph>): GatewayPlugin {
  return {
    onFetch({ url, setFetchFn }) {
      const subgraph = subgraphs[url];
      if (subgraph) setFetchFn((_url, init) => subgraph(url, init as RequestInit));
    },
  };
}
