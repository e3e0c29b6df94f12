import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { type DocumentNode, execute, getOperationAST, GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode, parse, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Clock } from '../runtime/clock.ts';
import { databaseRetryAfterSeconds, databaseUnavailableMessage, isDatabaseUnavailable } from '../runtime/database-availability.ts';
import type { Sql } from '../runtime/database.ts';
import { type GatewayContext, type RequestAuth, verifySubgraphRequest } from '../runtime/gateway-signature.ts';
import type { Logger } from '../runtime/logger.ts';
import type { SecretBox } from '../runtime/secret-box.ts';
import type { SendJob } from '../runtime/send-job.ts';
import type { KeywordDirectory } from './keyword-directory.ts';
import type { SourceReaders } from './source-readers.ts';
import { refuseUnstorableText, unstorableTextError } from './unstorable-text-guard.ts';
import { compiledExecution, compiledExecutor } from './compiled-execution.ts';

/** What every resolver of every subgraph receives. */
export interface SubgraphContext {
  sql: Sql;
  auth: RequestAuth | null;
  requestId: string;
  /** The client's address as the public server saw it; null for work without a client. */
  clientAddress: string | null;
  log: Logger;
  clock: Clock;
  /** Enqueues work for the job workers (look-backs, scoring, deliveries). */
  sendJob: SendJob;
  /** The environment integrations read their addresses and credentials from (the payment provider's). */
  env: NodeJS.ProcessEnv;
  /** Seals and opens the secrets stored for reading back (webhook signing secrets, Slack bot tokens). */
  secrets: SecretBox;
  /** The platforms' answers a keyword write needs (feeds checked now, review links), from the connectors. */
  sourceReaders: SourceReaders;
  /** What the mentions subgraph asks of keywords, answered by the keywords subgraph. */
  keywordDirectory: KeywordDirectory;
  /** The base poll interval (EARSHOT_POLL_INTERVAL_S): a new keyword's regular polls start one interval after its look-back. */
  pollIntervalSeconds: number;
}

export interface SubgraphServerOptions {
  name: string;
  schema: GraphQLSchema;
  sql: Sql;
  secret: string;
  log: Logger;
  clock: Clock;
  sendJob: SendJob;
  env: NodeJS.ProcessEnv;
  secrets: SecretBox;
  sourceReaders: SourceReaders;
  keywordDirectory: KeywordDirectory;
  pollIntervalSeconds: number;
  /** Queries and mutations run compiled by graphql-jit (compiled-execution.ts) rather than by graphql-js. */
  compiled?: boolean;
  host?: string;
  port?: number;
}

/** A GraphQL request as the gateway sends it, signature in `extensions`. */
export interface SubgraphRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  extensions?: Record<string, unknown>;
}

/** A GraphQL result as a subgraph answers it (errors formatted, as they travel in JSON). */
export interface SubgraphResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
  extensions?: Record<string, unknown>;
}

export interface RunningSubgraph {
  name: string;
  url: string;
  /** Answers a request without the network hop or its JSON, with the same checks as the port. */
  execute(request: SubgraphRequest): Promise<SubgraphResult>;
  /**
   * Answers a query or mutation for the gateway in this process, which
   * vouches for `context` itself (no signature to check): the answer
   * `execute` would give.
   */
  executeVouched(request: SubgraphRequest, context: GatewayContext): Promise<SubgraphResult>;
  close(): Promise<void>;
}

const unsigned = () =>
  new GraphQLError('This subgraph only answers requests signed by the Earshot gateway', {
    extensions: { code: 'unauthorized' },
  });

/** A signed request's answer before it is written as JSON: its HTTP status and GraphQL result. */
interface SignedAnswer {
  status: number;
  result: SubgraphResult;
}

const errorAnswer = (status: number, errors: SubgraphResult['errors']): SignedAnswer => ({ status, result: { errors } });

/** Writes an answer as JSON. */
function writeAnswer(response: http.ServerResponse, { status, result }: SignedAnswer) {
  const body = JSON.stringify(result);
  response
    .writeHead(status, { 'content-type': status === 200 ? 'application/json; charset=utf-8' : 'application/json', 'content-length': Buffer.byteLength(body) })
    .end(body);
}

/** A request's whole body as text. */
const bodyText = (request: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString()));
    request.on('error', reject);
  });

/** A resolver that lost the database answers `service_unavailable`, which the facade makes a 503 with `Retry-After`. */
const serviceUnavailable = { code: 'service_unavailable', retryAfterSeconds: databaseRetryAfterSeconds };

/** An error as sent, `service_unavailable` when it says the database is away: the same over HTTP and graphql-ws. */
const formatDatabaseError = (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError =>
  isDatabaseUnavailable(error) ? { ...formatted, message: databaseUnavailableMessage, extensions: { ...serviceUnavailable } } : formatted;

/**
 * An execution error as Apollo Server formats it (`extensions.code`
 * defaulting to INTERNAL_SERVER_ERROR; an `http` extension goes into the
 * response's status, not its body), then as this subgraph's `formatError`
 * does.
 */
function formatExecutionError(error: GraphQLError): GraphQLFormattedError {
  const { http, ...sent } = error.extensions;
  const extensions = { ...(typeof http === 'object' && http !== null ? sent : error.extensions), code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR' };
  return formatDatabaseError({ ...error.toJSON(), extensions }, error);
}

/** Operations parsed and validated for the in-process path, at most this many query texts kept (Apollo keeps its own the same way). */
const maxPreparedOperations = 1000;

/** graphql-ws sends errors as they are; these are its errors formatted as Apollo formats a query's, or undefined when none lost the database. */
const formatDatabaseErrors = (errors: readonly GraphQLError[] | undefined) =>
  errors?.some((error) => isDatabaseUnavailable(error)) ? errors.map((error) => formatDatabaseError(error.toJSON(), error)) : undefined;

/**
 * Serves one subgraph: queries and mutations over HTTP (executed by the
 * schema, Apollo Server wording the refusals), graphql-ws for
 * subscriptions, both on `/graphql`. Only requests carrying a
 * valid gateway signature are executed; their signed context becomes the
 * resolvers' context.
 */
export async function serveSubgraph(options: SubgraphServerOptions): Promise<RunningSubgraph> {
  const { name, schema, sql, secret, clock, sendJob, env, secrets, sourceReaders, keywordDirectory, pollIntervalSeconds } = options;
  const log = options.log.child({ subgraph: name });
  const contextFor = (signed: GatewayContext): SubgraphContext => {
    let requestLog: Logger | undefined;
    return {
      sql,
      auth: signed.auth,
      requestId: signed.requestId,
      clientAddress: signed.clientAddress ?? null,
      // Made when a resolver first logs: most requests log nothing, and a child logger (its fields and functions) was about
      // 2 % of a small subgraph's CPU a request.
      get log() {
        return (requestLog ??= log.child({ requestId: signed.requestId }));
      },
      clock,
      sendJob,
      env,
      secrets,
      sourceReaders,
      keywordDirectory,
      pollIntervalSeconds,
    };
  };

  const apollo = new ApolloServer<SubgraphContext>({
    ...(options.compiled ? { gateway: compiledExecution(schema) } : { schema }),
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    // Apollo stops itself on SIGTERM by default, answering every request of
    // the public server's drain with an error; Earshot stops it in its turn.
    stopOnTerminationSignals: false,
    // Whatever NODE_ENV says: only the signed gateway reaches a subgraph.
    introspection: true,
    formatError: formatDatabaseError,
    // Cache control is off: it wraps every field's resolver (a sixth of a mentions page's subgraph time) for hints nothing reads.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(), refuseUnstorableText],
  });
  await apollo.start();

  const failedAnswer = (error: unknown): SignedAnswer => {
    if (isDatabaseUnavailable(error)) return errorAnswer(503, [{ message: databaseUnavailableMessage, extensions: { ...serviceUnavailable } }]);
    log.error('subgraph request failed', { error: String(error) });
    return errorAnswer(500, [{ message: 'Internal error', extensions: { code: 'internal_error' } }]);
  };
  const executeWithApollo = async (request: SubgraphRequest, context: GatewayContext): Promise<SignedAnswer> => {
    try {
      const response = await apollo.executeOperation(
        {
          query: request.query,
          variables: request.variables ?? undefined,
          operationName: request.operationName ?? undefined,
          extensions: request.extensions,
        },
        { contextValue: contextFor(context) },
      );
      // Apollo answers incrementally only for @defer, which the gateway does not ask for.
      if (response.body.kind !== 'single') return errorAnswer(406, [{ message: 'Incremental delivery is not supported' }]);
      return { status: response.http.status ?? 200, result: response.body.singleResult as SubgraphResult };
    } catch (error) {
      return failedAnswer(error);
    }
  };
  // What Apollo keeps per query text: the parsed document, once validated (null when it is not).
  const prepared = new Map<string, { document: DocumentNode; operations: Map<string | null, OperationDefinitionNode | null> } | null>();
  const operationOf = (query: string, operationName: string | null) => {
    let entry = prepared.get(query);
    if (entry === undefined) {
      try {
        const document = parse(query);
        entry = validate(schema, document).length ? null : { document, operations: new Map() };
      } catch {
        entry = null;
      }
      if (prepared.size >= maxPreparedOperations) prepared.delete(prepared.keys().next().value!);
      prepared.set(query, entry);
    }
    if (!entry) return undefined;
    let operation = entry.operations.get(operationName);
    if (operation === undefined) entry.operations.set(operationName, (operation = getOperationAST(entry.document, operationName) ?? null));
    return operation && operation.operation !== 'subscription' ? { document: entry.document, operation } : undefined;
  };
  const executeCompiled = options.compiled ? compiledExecutor(schema) : undefined;
  // A query or mutation that is valid, free of NUL characters and given
  // variables it can take is executed by the schema itself, with what
  // Apollo Server's request pipeline would answer (status 200, errors
  // formatted as it formats them); anything else goes Apollo's way, with
  // the same context. Apollo's pipeline per request (hashing the query,
  // its plugins' hooks, its response object) cost a small subgraph more
  // than the request's own resolvers.
  const executePrepared = async (request: SubgraphRequest, context: GatewayContext): Promise<SignedAnswer> => {
    const operationName = request.operationName ?? null;
    const found = operationOf(request.query, operationName);
    const variables = request.variables ?? undefined;
    // Refusals (not valid, a string that cannot be stored, variables it cannot take) are Apollo's to word.
    if (!found || unstorableTextError(found.document, variables)) return executeWithApollo(request, context);
    try {
      const { document, operation } = found;
      const contextValue = contextFor(context);
      const result = executeCompiled
        ? await executeCompiled({ document, operationName, operation, variables, context: contextValue })
        : await execute({ schema, document, operationName, contextValue, variableValues: variables });
      // Of a valid operation, only variables it cannot take end an execution without data, before any resolver ran: the
      // executor's own check of them, rather than a check beforehand that coerced every request's variables twice.
      if (!('data' in result)) return executeWithApollo(request, context);
      return { status: 200, result: result.errors ? { data: result.data, errors: result.errors.map(formatExecutionError) } : { data: result.data } };
    } catch (error) {
      return failedAnswer(error);
    }
  };
  // One path for both ways in, the subgraph's port and the all-in-one
  // gateway calling in-process: a request whose signature is checked
  // before it is executed. Only the gateway calls, always with a POSTed
  // JSON body (or, in-process, that body's object), so Apollo's HTTP
  // handling (GET, content negotiation, CSRF) has nothing to do here.
  const executeSigned = async (body: Record<string, unknown>): Promise<SignedAnswer> => {
    let signed: GatewayContext | null;
    try {
      signed = verifySubgraphRequest(secret, body);
    } catch (error) {
      return failedAnswer(error);
    }
    if (!signed) return errorAnswer(401, [unsigned().toJSON()]);
    return executePrepared(body as unknown as SubgraphRequest, signed);
  };

  const executeSignedBody = async (text: string): Promise<SignedAnswer> => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      return errorAnswer(400, [{ message: 'Malformed JSON body' }]);
    }
    return executeSigned(body);
  };
  const isGraphQLPost = (url: string | undefined, method: string | undefined) => method === 'POST' && new URL(url ?? '/', 'http://subgraph').pathname === '/graphql';
  // Node's own request and response: only the gateway calls, a POST with a JSON body answered with JSON, and the
  // Fetch API's request and response objects (a server adapter's) cost a subgraph more per request than its answer.
  const server = http.createServer((request, response) => {
    if (!isGraphQLPost(request.url, request.method)) {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    bodyText(request)
      .then(executeSignedBody)
      .then(
        (answer) => writeAnswer(response, answer),
        () => response.destroy(),
      );
  });

  const wss = new WebSocketServer({ server, path: '/graphql' });
  const wsServer = useServer<Record<string, unknown>>(
    {
      schema,
      onSubscribe: (_ctx, _id, payload) => {
        if (!verifySubgraphRequest(secret, payload)) return [unsigned()];
        const unstorable = unstorableTextError(parse(payload.query), payload.variables ?? undefined);
        return unstorable ? [unstorable] : undefined;
      },
      context: (_ctx, _id, payload) => contextFor(verifySubgraphRequest(secret, payload) as GatewayContext),
      // A subscription that lost the database (its start, or an event) says `service_unavailable`, as a query does.
      onNext: (_ctx, _id, _payload, _args, result) => {
        const errors = formatDatabaseErrors(result.errors);
        return errors && { ...result, errors };
      },
      onError: (_ctx, _id, _payload, errors) => formatDatabaseErrors(errors),
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
    // The gateway in the same process skips the body's JSON both ways: it hands over the request and takes the result as objects.
    execute: async (request) => (await executeSigned(request as unknown as Record<string, unknown>)).result,
    executeVouched: async (request, context) => (await executePrepared(request, context)).result,
    async close() {
      await wsServer.dispose();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apollo.stop();
    },
  };
}
