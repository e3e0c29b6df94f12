import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { JobContext } from '../jobs/job-definition.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Sql } from '../runtime/database.ts';
import { type GatewayContext, type RequestAuth, verifySubgraphRequest } from '../runtime/gateway-signature.ts';
import type { Logger } from '../runtime/logger.ts';

/** What every resolver of every subgraph receives. */
export interface SubgraphContext {
  sql: Sql;
  auth: RequestAuth | null;
  requestId: string;
  log: Logger;
  clock: Clock;
  /** Enqueues work for the job workers (look-backs, scoring, deliveries). */
  sendJob: JobContext['send'];
  /** The environment integrations read their addresses and credentials from (the payment provider's). */
  env: NodeJS.ProcessEnv;
}

export interface SubgraphServerOptions {
  name: string;
  schema: GraphQLSchema;
  sql: Sql;
  secret: string;
  log: Logger;
  clock: Clock;
  sendJob: JobContext['send'];
  env: NodeJS.ProcessEnv;
  host?: string;
  port?: number;
}

export interface RunningSubgraph {
  name: string;
  url: string;
  close(): Promise<void>;
}

const unsigned = () =>
  new GraphQLError('This subgraph only answers requests signed by the Earshot gateway', {
    extensions: { code: 'unauthorized' },
  });

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Serves one subgraph: Apollo Server for queries and mutations over HTTP,
 * graphql-ws for subscriptions, both on `/graphql`. Only requests carrying a
 * valid gateway signature are executed; their signed context becomes the
 * resolvers' context.
 */
export async function serveSubgraph(options: SubgraphServerOptions): Promise<RunningSubgraph> {
  const { name, schema, sql, secret, clock, sendJob, env } = options;
  const log = options.log.child({ subgraph: name });
  const contextFor = (signed: GatewayContext): SubgraphContext => ({
    sql,
    auth: signed.auth,
    requestId: signed.requestId,
    log: log.child({ requestId: signed.requestId }),
    clock,
    sendJob,
    env,
  });

  const apollo = new ApolloServer<SubgraphContext>({
    schema,
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled()],
  });
  await apollo.start();

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://subgraph');
      if (url.pathname !== '/graphql' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const raw = await readBody(req);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Malformed JSON body' }] }));
        return;
      }
      const signed = verifySubgraphRequest(secret, body);
      if (!signed) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [unsigned().toJSON()] }));
        return;
      }
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(key, value);
      }
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: 'POST', headers, search: url.search, body },
        context: async () => contextFor(signed),
      });
      res.statusCode = response.status ?? 200;
      for (const [key, value] of response.headers) res.setHeader(key, value);
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
      } else {
        for await (const chunk of response.body.asyncIterator) res.write(chunk);
        res.end();
      }
    } catch (error) {
      log.error('subgraph request failed', { error: String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'Internal error', extensions: { code: 'internal_error' } }] }));
    }
  });

  const wss = new WebSocketServer({ server, path: '/graphql' });
  const wsServer = useServer<Record<string, unknown>>(
    {
      schema,
      onSubscribe: (_ctx, _id, payload) => (verifySubgraphRequest(secret, payload) ? undefined : [unsigned()]),
      context: (_ctx, _id, payload) => contextFor(verifySubgraphRequest(secret, payload) as GatewayContext),
    },
    wss,
  );

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/graphql`;
  log.debug('subgraph listening', { url });
  return {
    name,
    url,
    async close() {
      await wsServer.dispose();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apollo.stop();
    },
  };
}
