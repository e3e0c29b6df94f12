import { GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../runtime/database.ts';
import { type GatewayContext, signSubgraphRequest } from '../runtime/gateway-signature.ts';
import { serveSubgraph, type SubgraphContext } from '../subgraphs/subgraph-server.ts';
import { loneSubgraphOptions, recordingLogger } from './harness.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const secret = 'the test deployment secret';
const context: GatewayContext = {
  auth: { workspaceId: 'ws_1', kind: 'api_key', scope: 'read', apiKeyId: 'key_1', expiresAt: null, userId: null },
  requestId: 'req_context_1',
};

/** A subgraph of one field whose resolver logs through its context and counts its runs. */
async function echoSubgraph(compiled: boolean) {
  const runs: number[] = [];
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType<unknown, SubgraphContext>({
      name: 'Query',
      fields: {
        echo: {
          type: new GraphQLNonNull(GraphQLString),
          args: { times: { type: new GraphQLNonNull(GraphQLInt) } },
          resolve: (_root, { times }: { times: number }, ctx) => {
            runs.push(times);
            ctx.log.info('echoed', { times });
            return `${ctx.requestId} x${times}`;
          },
        },
      },
    }),
  });
  // Nothing listens on port 9: the resolver reads no table.
  const sql = connect('postgres://earshot@127.0.0.1:9/earshot', { max: 1 });
  cleanups.push(() => sql.end({ timeout: 0 }));
  const logged = recordingLogger();
  const subgraph = await serveSubgraph({
    name: 'echo',
    schema,
    sql,
    secret,
    log: logged.log,
    ...loneSubgraphOptions,
    compiled,
  });
  cleanups.push(() => subgraph.close());
  const ask = (variables: Record<string, unknown>) => {
    const query = 'query Echo($times: Int!) { echo(times: $times) }';
    return subgraph.execute({ query, variables, extensions: { earshot: signSubgraphRequest(secret, { query, variables, context }) } });
  };
  return { ask, runs, lines: logged.lines };
}

describe.each([false, true])('a subgraph request (compiled by graphql-jit: %s)', (compiled) => {
  it("logs through its context with the subgraph's name and the gateway's request id", async () => {
    const { ask, lines } = await echoSubgraph(compiled);
    expect(await ask({ times: 2 })).toEqual({ data: { echo: 'req_context_1 x2' } });
    expect(lines.filter((line) => line.message === 'echoed')).toEqual([expect.objectContaining({ level: 'info', subgraph: 'echo', requestId: 'req_context_1', times: 2 })]);
  });

  it('refuses variables it cannot take in Apollo Server’s words, running no resolver', async () => {
    const { ask, runs } = await echoSubgraph(compiled);
    const result = await ask({ times: 'two' });
    expect(result.data).toBeUndefined();
    expect(result.errors).toEqual([
      expect.objectContaining({ message: 'Variable "$times" got invalid value "two"; Int cannot represent non-integer value: "two"', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
    ]);
    expect(runs).toEqual([]);
    expect(await ask({ times: 3 })).toEqual({ data: { echo: 'req_context_1 x3' } });
    expect(runs).toEqual([3]);
  });
});
