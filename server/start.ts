import { createGateway } from '../gateway/gateway.ts';
import { inProcessRequest } from '../gateway/plugins/use-in-process-caller.ts';
import { unreachablePartResponse } from '../gateway/service-unavailable.ts';
import { createMcpEndpoint } from '../mcp/mcp-endpoint.ts';
import { createAuthorizationServer } from '../oauth/authorization-server.ts';
import { oauthScopes, protectedResourceMetadataUrl, resourceBase } from '../oauth/metadata.ts';
import { jobDefinitions } from '../jobs/index.ts';
import type { SendJob } from '../runtime/send-job.ts';
import { connectorSourceReaders } from '../jobs/connectors/source-readers.ts';
import { startAutoRechargeRunner } from '../jobs/auto-recharge/auto-recharge-runner.ts';
import { startCrashRecovery } from '../jobs/crash-recovery.ts';
import { startJobQueue } from '../jobs/job-queue.ts';
import { startBlueskyLive } from '../jobs/live/bluesky-live.ts';
import { startPollScheduler } from '../jobs/poll/poll-scheduler.ts';
import { startDeliveryDispatcher } from '../jobs/deliver/delivery-dispatcher.ts';
import { createFacade, type GatewayFetch, gatewayHttpRequest } from '../rest-facade/facade.ts';
import { routeTables } from '../rest-facade/route-table.ts';
import { keywordDirectory, startKeywordTermCache } from '../subgraphs/keywords/index.ts';
import { serveSubgraph, type RunningSubgraph } from '../subgraphs/subgraph-server.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';
import {
  type AuthenticatedKey,
  authenticateOAuthToken,
  authenticateSession,
  closeSharedMailers,
  countWorkspaceRequest,
  startApiKeyCache,
  teamSealedColumns,
  watchUserCredentials,
} from '../subgraphs/team/index.ts';
import { type EarshotConfig, publicUrl, type SubgraphName, subgraphNames } from '../runtime/config.ts';
import { connect, connectWithArrayTypes, type EmbeddedDatabase, type Sql, startEmbeddedDatabase } from '../runtime/database.ts';
import { watchDatabase } from '../runtime/database-availability.ts';
import type { RequestAuth } from '../runtime/gateway-signature.ts';
import { checkSecretsKey, deploymentSecretsColumn, resolveGatewaySecret } from '../runtime/gateway-secret.ts';
import { sealStoredSecrets } from '../runtime/sealed-secrets.ts';
import { loadSecretBox, type SecretBox } from '../runtime/secret-box.ts';
import { type Clock, systemClock } from '../runtime/clock.ts';
import type { Logger } from '../runtime/logger.ts';
import { migrate } from '../runtime/migrate.ts';
import { advertisedAddress, recordRoleAddress, roleAddresses } from '../runtime/role-addresses.ts';
import { valueWithin } from '../runtime/value-within.ts';
import { loadDashboardFiles } from './dashboard-files.ts';
import { startPublicServer } from './public-server.ts';
import { requestDeadlineMs } from './request-deadline.ts';

/**
 * PostgreSQL's statement timeout on the pool requests use: a statement still
 * running then is cancelled and its request answers 503, inside the request
 * deadline. Jobs and migrations use a pool without one (the daily tick over
 * 100,000 keywords runs for longer).
 */
const requestStatementTimeoutMs = requestDeadlineMs - 500;

/** Downloads (CSV exports) streamed at once by one facade process; more wait for a connection. */
const downloadConnections = 4;

/**
 * How long `stop()` gives its steps before the database's own shutdown,
 * which takes at most about 2 s more: together well inside the contract's
 * 10 s from SIGTERM to exit. The public server's drain takes up to 5 s of
 * it; a job still running after that is left to be run again.
 */
const stopStepsMs = 6000;

/**
 * Subgraphs whose queries and mutations run compiled by graphql-jit: the
 * mentions subgraph answers pages of 50 mentions, some 1,800 fields, where
 * graphql-js's work per field was a fifth of a REST page's CPU time; the
 * keywords subgraph a page of keywords with their stats and cost, some 20
 * fields a keyword, where it was a seventh of the subgraph's CPU time
 * (`npm run bench -- gateways`, the three-subgraph query). The others
 * answer small results, where compiling would save little.
 */
const compiledSubgraphs: SubgraphName[] = ['mentions', 'keywords'];

/** What one process runs: everything, or one part of a many-process deployment. */
export type Role = 'all' | 'gateway' | 'facade' | 'worker' | `subgraph:${SubgraphName}`;

export function parseRole(value: string): Role {
  if (value === 'all' || value === 'gateway' || value === 'facade' || value === 'worker') return value;
  const name = value.startsWith('subgraph:') ? value.slice('subgraph:'.length) : '';
  if ((subgraphNames as readonly string[]).includes(name)) return value as Role;
  throw new Error(`Unknown role "${value}": use gateway, facade, worker or subgraph:${subgraphNames.join('|subgraph:')}`);
}

export interface RunningEarshot {
  /** Base address of the public port. */
  url: string;
  sql: Sql;
  /** Sends a job to a queue of this deployment. */
  sendJob: SendJob;
  /** Seals and opens the secrets stored for reading back, with this deployment's key. */
  secrets: SecretBox;
  /** Where each subgraph answers, in the 'all' role only (tests reach them directly to prove they refuse unsigned requests). */
  subgraphUrls?: Record<SubgraphName, string>;
  stop(): Promise<void>;
}

/** A bearer credential: an API key, or an OAuth access token acting for its user on the workspace and scope chosen at consent. */
async function authenticateWith(
  sql: Sql,
  authenticateApiKey: (secret: string) => Promise<AuthenticatedKey | undefined>,
  secret: string,
  clock: Clock,
): Promise<RequestAuth | undefined> {
  const key = await authenticateApiKey(secret);
  if (key) {
    return { workspaceId: key.workspaceId, kind: 'api_key', scope: key.scope, apiKeyId: key.id, expiresAt: key.expiresAt?.toISOString() ?? null, userId: null };
  }
  const token = await authenticateOAuthToken(sql, secret, clock.now());
  return token
    ? { workspaceId: token.workspaceId, kind: 'oauth', scope: token.scope, apiKeyId: null, expiresAt: token.expiresAt.toISOString(), userId: token.userId }
    : undefined;
}

async function authenticateSessionWith(sql: Sql, token: string): Promise<{ auth: RequestAuth; csrfToken: string } | undefined> {
  const session = await authenticateSession(sql, token);
  return session
    ? {
        auth: {
          workspaceId: session.workspaceId,
          kind: 'session',
          scope: 'write',
          apiKeyId: null,
          expiresAt: session.expiresAt.toISOString(),
          userId: session.userId,
          sessionId: session.id,
        },
        csrfToken: session.csrfToken,
      }
    : undefined;
}

/**
 * Starts the parts of Earshot a role names, on one database: embedded
 * PostgreSQL when `DATABASE_URL` is unset, migrations, then subgraphs,
 * gateway, facade and workers. `stop()` undoes it in reverse order: the
 * public server stops taking connections and drains first, the database
 * goes last; a step that overruns its share of the time is left behind.
 */
export async function startEarshot(
  config: EarshotConfig,
  role: Role,
  log: Logger,
  options: { clock?: Clock; signal?: AbortSignal } = {},
): Promise<RunningEarshot> {
  const clock = options.clock ?? systemClock;
  const stops: [string, () => Promise<unknown>][] = [];
  let database: Pick<EmbeddedDatabase, 'url' | 'stop'> | undefined;
  const stop = async () => {
    const until = Date.now() + stopStepsMs;
    for (const [step, undo] of stops.reverse()) {
      const done = undo().catch((error) => log.error('stop step failed', { step, error: String(error) }));
      if (!(await valueWithin(done.then(() => true), until - Date.now()))) log.warn('stop step overran its time and was left behind', { step });
    }
    await database?.stop().catch((error) => log.error('stopping the database failed', { error: String(error) }));
  };
  try {
    database = config.databaseUrl
      ? { url: config.databaseUrl, stop: async () => {} }
      : await startEmbeddedDatabase(config.dataDir, log, { server: true });
    const watch = watchDatabase(database.url, log);
    stops.push(['database watch', watch.stop]);
    const sql = await connectWithArrayTypes(database.url, { watch });
    stops.push(['connection pool', () => sql.end({ timeout: 1 })]);
    const requestSql = await connectWithArrayTypes(database.url, { watch, statementTimeoutMs: requestStatementTimeoutMs });
    stops.push(['request connection pool', () => requestSql.end({ timeout: 1 })]);
    await migrate(sql);
    const secrets = await loadSecretBox(config, sql);
    await checkSecretsKey(sql, secrets);
    const sealed = await sealStoredSecrets(sql, secrets, [deploymentSecretsColumn, ...teamSealedColumns]);
    if (sealed > 0) log.info('sealed the secrets stored in clear before migrations 045 and 048', { sealed });
    // Closed after everything that mails (requests, the dispatcher) has stopped.
    stops.push(['mail connections', closeSharedMailers]);
    const secret = await resolveGatewaySecret(config, sql, secrets);
    // Every process may send jobs; only workers (alone or in the all-in-one process) work them.
    const works = role === 'all' || role === 'worker';
    const queue = await startJobQueue({ sql, databaseUrl: database.url, definitions: jobDefinitions, clock, log, config, secrets, work: works });
    stops.push(['job queue', queue.stop]);
    if (works) {
      const recovery = await startCrashRecovery(queue.context('crash-recovery'));
      stops.push(['crash recovery', recovery.stop]);
      const scheduler = startPollScheduler(queue.context('poll-scheduler'));
      stops.push(['poll scheduler', scheduler.stop]);
      const dispatcher = await startDeliveryDispatcher(queue.context('deliveries'));
      stops.push(['delivery dispatcher', dispatcher.stop]);
      const recharges = await startAutoRechargeRunner(queue.context('auto-recharge'));
      stops.push(['auto-recharge runner', recharges.stop]);
      if (config.blueskyLive) {
        const live = await startBlueskyLive(queue.context('bluesky-live'));
        stops.push(['Bluesky live stream', live.stop]);
      }
    }

    const sourceReaders = connectorSourceReaders(config.env);
    const serveOne = (name: SubgraphName, port: number, host: string): Promise<RunningSubgraph> =>
      Promise.resolve(subgraphSchemas[name]()).then((schema) => serveSubgraph({ name, schema, sql: requestSql, secret, log, port, host, clock, sendJob: queue.send, env: config.env, secrets, sourceReaders, keywordDirectory, pollIntervalSeconds: config.pollIntervalSeconds, compiled: compiledSubgraphs.includes(name) }));

    if (role.startsWith('subgraph:')) {
      const subgraph = await serveOne(role.slice('subgraph:'.length) as SubgraphName, config.port, config.host);
      stops.push([`subgraph ${subgraph.name}`, subgraph.close]);
      const port = Number(new URL(subgraph.url).port);
      await recordRoleAddress(sql, role, advertisedAddress(config.host, port, '/graphql'));
      log.info(`Earshot ${role} ready on port ${port}`, { url: subgraph.url });
      return { url: subgraph.url, sql, stop, sendJob: queue.send, secrets };
    }

    let subgraphUrls: Record<SubgraphName, string>;
    let inProcessSubgraphs: Record<string, RunningSubgraph> = {};
    if (role === 'all') {
      // The subgraphs still listen: subscriptions reach them over graphql-ws.
      const running = await Promise.all(subgraphNames.map((name) => serveOne(name, 0, '127.0.0.1')));
      for (const subgraph of running) stops.push([`subgraph ${subgraph.name}`, subgraph.close]);
      subgraphUrls = Object.fromEntries(running.map((subgraph) => [subgraph.name, subgraph.url])) as Record<SubgraphName, string>;
      inProcessSubgraphs = Object.fromEntries(running.map((subgraph) => [subgraph.url, subgraph]));
    } else {
      // A subgraph the environment does not place is found where its process recorded its address.
      const missing = role === 'gateway' ? subgraphNames.filter((name) => !config.subgraphUrls[name]) : [];
      const recorded = await roleAddresses(sql, missing.map((name) => `subgraph:${name}`), log, options.signal);
      subgraphUrls = { ...Object.fromEntries(missing.map((name) => [name, recorded[`subgraph:${name}`]])), ...config.subgraphUrls } as Record<SubgraphName, string>;
    }

    // Only the roles that authenticate requests keep keys in memory (and listen for their changes).
    const apiKeys = role === 'worker' ? undefined : await startApiKeyCache(requestSql);
    if (apiKeys) stops.push(['API key cache', apiKeys.stop]);
    const keywordTerms = role === 'all' || role === 'gateway' ? await startKeywordTermCache(requestSql) : undefined;
    if (keywordTerms) stops.push(['keyword term cache', keywordTerms.stop]);
    const userCredentials = role === 'all' || role === 'gateway' ? await watchUserCredentials(requestSql) : undefined;
    if (userCredentials) stops.push(['user credential changes', userCredentials.stop]);
    const authenticate = (token: string) => authenticateWith(requestSql, (secret) => apiKeys!.authenticate(secret), token, clock);
    const gateway =
      role === 'all' || role === 'gateway'
        ? await createGateway({
            subgraphUrls,
            inProcessSubgraphs,
            secret,
            rateLimitPerMinute: config.rateLimitPerMinute,
            maxBodyBytes: config.maxBodyBytes,
            authenticate,
            authenticateSession: (token) => authenticateSessionWith(requestSql, token),
            onCredentialChange: (listener) => {
              const stopKeys = apiKeys!.onChange(listener);
              const stopUsers = userCredentials!.onChange(listener);
              return () => {
                stopKeys();
                stopUsers();
              };
            },
            countRequests: (workspaceId, requests) => countWorkspaceRequest(requestSql, workspaceId, requests),
            keywordTerms,
            log,
          })
        : undefined;
    if (gateway) stops.push(['gateway', async () => gateway.dispose()]);

    let facade: ((request: Request) => Promise<Response>) | undefined;
    if (role === 'all' || role === 'facade') {
      let gatewayFetch: GatewayFetch;
      if (gateway) {
        // The operation goes with the request as the object (use-in-process-caller.ts), by the method GraphQL over HTTP allows it; a
        // POST says JSON, as its body would, so the gateway's request parsers match it as before and then read none.
        gatewayFetch = async (operation, headers, caller) => {
          const init = operation.query.startsWith('query') ? { method: 'GET', headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } };
          return gateway.handleRequest(inProcessRequest(new gateway.fetchAPI.Request('http://gateway/graphql', init), caller), {});
        };
      } else {
        const gatewayUrl = config.gatewayUrl ?? (await roleAddresses(sql, ['gateway'], log, options.signal)).gateway;
        const target = new URL('/graphql', gatewayUrl);
        gatewayFetch = (operation, headers) => {
          const { search, init } = gatewayHttpRequest(operation, headers);
          return fetch(`${target}${search}`, init).catch(() => unreachablePartResponse('The gateway'));
        };
      }
      // A download holds its connection while the client reads; a pool of its own keeps downloads from starving requests.
      const streamSql = await connectWithArrayTypes(database.url, { watch, statementTimeoutMs: requestStatementTimeoutMs, max: downloadConnections });
      stops.push(['download connection pool', () => streamSql.end({ timeout: 1 })]);
      facade = createFacade({ tables: routeTables, gatewayFetch, maxBodyBytes: config.maxBodyBytes, log, service: { databaseStatus: watch.check }, streamSql });
    }

    // The authorization server answers where the REST facade does; it keeps its state through the team subgraph's functions.
    const oauth = facade
      ? createAuthorizationServer({
          sql: requestSql,
          env: config.env,
          clock,
          lifetimes: { accessTokenSeconds: config.oauthAccessTokenSeconds },
          log,
          databaseUp: () => watch.status().up,
        })
      : undefined;

    // The MCP server's tools are routes of the REST facade, so it runs where the facade does.
    const mcp = facade
      ? createMcpEndpoint({
          restApi: facade,
          authenticate,
          resourceMetadataUrl: (request) => protectedResourceMetadataUrl(resourceBase(publicUrl(config.env), new URL(request.url).origin), '/mcp'),
          scopes: oauthScopes,
          maxBodyBytes: config.maxBodyBytes,
          log,
        })
      : undefined;

    if (!gateway && !facade) {
      log.info(`Earshot ${role} ready`);
      return { url: '', sql, stop, sendJob: queue.send, secrets };
    }
    // The dashboard is served where the public API is: with the gateway, which it talks to.
    const dashboard = gateway ? await loadDashboardFiles() : undefined;
    const server = await startPublicServer({
      host: config.host,
      port: config.port,
      gateway,
      facade,
      mcp,
      oauth,
      publicOrigin: config.publicOrigin,
      dashboard,
      databaseStatus: watch.status,
      maxMessageBytes: config.maxBodyBytes,
    });
    stops.push(['public server', server.close]);
    if (gateway) await recordRoleAddress(sql, 'gateway', advertisedAddress(config.host, server.port));
    log.info(`Earshot ${role} ready on port ${server.port}`, { url: server.url });
    return { url: server.url, sql, stop, sendJob: queue.send, secrets, ...(role === 'all' ? { subgraphUrls } : {}) };
  } catch (error) {
    await stop();
    throw error;
  }
}
