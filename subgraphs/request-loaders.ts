import type { SubgraphContext } from './subgraph-server.ts';

/**
 * Per-request batching loaders (DataLoader): `create` runs once per request
 * context and every resolver of that request gets the same set, so a page of
 * items costs a fixed number of queries and nothing is cached across requests.
 */
export function perRequest<Loaders extends object>(create: (ctx: SubgraphContext) => Loaders): (ctx: SubgraphContext) => Loaders {
  const byRequest = new WeakMap<SubgraphContext, Loaders>();
  return (ctx) => {
    let loaders = byRequest.get(ctx);
    if (!loaders) {
      loaders = create(ctx);
      byRequest.set(ctx, loaders);
    }
    return loaders;
  };
}
