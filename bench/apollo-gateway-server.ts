import { readFileSync } from 'node:fs';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { type GatewayContext, signedContextExtension, signSubgraphRequest } from '../runtime/gateway-signature.ts';

/**
 * Apollo Gateway over Earshot's supergraph and subgraphs, for the gateway
 * comparison (run as a process of its own by `gateway-comparison.ts`, with
 * its settings in one JSON argument). It authenticates nobody: every
 * request acts with the same fixed context, signed for the subgraphs as
 * Earshot's gateway signs it, so Apollo does less per request than Earshot.
 */
const { port, supergraphPath, subgraphUrls, secret, context } = JSON.parse(process.argv[2]) as {
  port: number;
  supergraphPath: string;
  subgraphUrls: Record<string, string>;
  secret: string;
  context: GatewayContext;
};

class SignedDataSource extends RemoteGraphQLDataSource {
  override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
    request.extensions = {
      ...request.extensions,
      [signedContextExtension]: signSubgraphRequest(secret, { query: request.query!, variables: request.variables, context }),
    };
  }
}

const gateway = new ApolloGateway({
  supergraphSdl: readFileSync(supergraphPath, 'utf8'),
  buildService: ({ name }) => new SignedDataSource({ url: subgraphUrls[name] }),
});
const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, { listen: { port, host: '127.0.0.1' } });
process.stdout.write(`ready ${url}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void server.stop().finally(() => process.exit(0)));
