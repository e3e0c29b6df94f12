import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../runtime/database.ts';
import { type GatewayContext, signSubgraphRequest } from '../runtime/gateway-signature.ts';
import { createLogger } from '../runtime/logger.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';
import { serveSubgraph } from '../subgraphs/subgraph-server.ts';
import { loneSubgraphOptions } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the mentions subgraph, compiled by graphql-jit, when the database is away', () => {
  // graphql-jit's error for a resolver's plain error has no extensions; Apollo failed formatting it and answered
  // "Internal server error" (a 500 through the facade), where the database being away is 503 service_unavailable.
  it('answers service_unavailable, as the subgraphs graphql-js executes do', async () => {
    // Nothing listens on port 9: every connection is refused, as by a server that is gone.
    const sql = connect('postgres://earshot@127.0.0.1:9/earshot', { max: 1 });
    cleanups.push(() => sql.end({ timeout: 0 }));
    const secret = 'the test deployment secret';
    const subgraph = await serveSubgraph({
      name: 'mentions',
      schema: await subgraphSchemas.mentions(),
      sql,
      secret,
      log: createLogger('silent'),
      ...loneSubgraphOptions,
      compiled: true,
    });
    cleanups.push(() => subgraph.close());

    const query = '{ mention(id: "mm_1") { id } }';
    const context: GatewayContext = {
      auth: { workspaceId: 'ws_1', kind: 'api_key', scope: 'read', apiKeyId: 'key_1', expiresAt: null, userId: null },
      requestId: 'req_1',
    };
    const result = await subgraph.execute({ query, extensions: { earshot: signSubgraphRequest(secret, { query, variables: undefined, context }) } });
    expect(result.errors).toEqual([
      expect.objectContaining({ message: 'The database is not available; retry shortly', extensions: { code: 'service_unavailable', retryAfterSeconds: 5 } }),
    ]);
  });
});
