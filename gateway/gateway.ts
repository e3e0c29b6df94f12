import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createGatewayRuntime, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import type { SubgraphName } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import type { RequestAuth } from '../runtime/gateway-signature.ts';
import { useApiKeyAuth } from './plugins/use-api-key-auth.ts';
import { useLiveCredentials } from './plugins/use-live-credentials.ts';
import type { KeywordTermCache } from '../subgraphs/keywords/index.ts';
import { useClientAddress } from './plugins/use-client-address.ts';
import { useCodedRequestErrors } from './plugins/use-coded-request-errors.ts';
import { defaultOperationLimits, useRequestLimits } from './plugins/use-request-limits.ts';
import { useRateLimit } from './plugins/use-rate-limit.ts';
import { useReadOnlyKeys } from './plugins/use-read-only-keys.ts';
import { useRetryLaterStatus } from './plugins/use-retry-later-status.ts';
import { type InProcessSubgraph, useInProcessSubgraphs } from './plugins/use-in-process-subgraphs.ts';
import { useInProcessOperations } from './plugins/use-in-process-operations.ts';
import { useInProcessCaller } from './plugins/use-in-process-caller.ts';
import { useKeywordTermCache } from './plugins/use-keyword-term-cache.ts';
import { useRequestId } from './plugins/use-request-id.ts';
import { useUnreachableSubgraphs } from './plugins/use-unreachable-subgraphs.ts';
import { useSubgraphHttp } from './plugins/use-subgraph-http.ts';
import { useSignedSubgraphRequests } from './plugins/use-signed-subgraph-requests.ts';
import { useSharedSubscriptions } from './plugins/use-shared-subscriptions.ts';
import { useSubscriptionErrors } from './plugins/use-subscription-errors.ts';

const supergraphPath = fileURLToPath(new URL('../schema/supergraph.graphql', import.meta.url));

export interface GatewayOptions {
  /** Where each subgraph answers (`http://host:port/graphql`); its graphql-ws endpoint is the same path. */
  subgraphUrls: Record<SubgraphName, string>;
  /** Subgraphs served by this process, by their URL: their queries and mutations skip the network. */
  inProcessSubgraphs?: Record<string, InProcessSubgraph>;
  /**
   * Whether an operation planned as one fetch to an in-process subgraph is
   * handed to it without the router (use-in-process-operations.ts). Default
   * true; false keeps every operation the router's way, which tests and
   * benchmarks compare it with.
   */
  inProcessOperations?: boolean;
  secret: string;
  rateLimitPerMinute: number;
  /** The largest request body read (`EARSHOT_MAX_BODY_BYTES`). */
  maxBodyBytes: number;
  authenticate(secret: string): Promise<RequestAuth | undefined>;
  authenticateSession(token: string): Promise<{ auth: RequestAuth; csrfToken: string } | undefined>;
  /**
   * Announces the holder of each credential that changed: an API key's id
   * (the API key cache's `onChange`) or a user's id (a session, access token,
   * grant or membership of theirs), so the subscriptions it opened end at once.
   */
  onCredentialChange?(listener: (holderId: string | undefined) => void): () => void;
  countRequests(workspaceId: string, requests: number): Promise<{ used: number; windowStart: Date }>;
  /** Keyword terms the keywords subgraph answered, which a page of mentions is named from (none: every page asks). */
  keywordTerms?: KeywordTermCache;
  log: Logger;
}

/** Root fields that authenticate their callers themselves (a provider's signature, a token in the link, a password). */
const publicRootFields = ['Mutation.receiveStripeWebhook', 'Mutation.completeSlackInstall', 'Mutation.receiveSlackInteraction', 'Mutation.receiveTelegramUpdate', 'Mutation.signInWithPassword', 'Mutation.sendMagicLink', 'Mutation.signInWithMagicLink', 'Mutation.confirmEmailChannel', 'Query.receivedInvitation', 'Mutation.acceptInvitation', 'Mutation.declineInvitation', 'Mutation.unsubscribeOwnerEmails', 'Mutation.unsubscribeEmailChannel'];

/**
 * The Hive Gateway runtime over the committed supergraph. Its setup is the
 * list of plugins: client address, operations answered by one in-process
 * subgraph, coded errors, request limits, request id, authentication, rate
 * limit, 429 and 503 for retry-later errors of subgraphs, read-only keys,
 * in-process subgraphs, signed subgraph requests, subgraph fetches over node:http, unreachable subgraphs as 503s, keyword terms from memory, subscription
 * errors, an in-process caller's operation and results as objects, shared
 * subscriptions.
 */
export async function createGateway(options: GatewayOptions): Promise<GatewayRuntime> {
  const supergraph = await readFile(supergraphPath, 'utf8');
  const transportEntries = Object.fromEntries(
    Object.entries(options.subgraphUrls).map(([name, url]) => [
      name,
      {
        location: url,
        options: {
          subscriptions: { kind: 'ws', location: url.replace(/^http/, 'ws') },
          // Every subgraph request carries its own signed request id, so no two are alike: deduplication would only deep-copy each result.
          deduplicateInflightRequests: false,
        },
      },
    ]),
  );
  const inProcessByName = Object.fromEntries(
    Object.entries(options.subgraphUrls).flatMap(([name, url]) => (options.inProcessSubgraphs?.[url] && options.inProcessOperations !== false ? [[name, options.inProcessSubgraphs[url]]] : [])),
  );
  const runtime = createGatewayRuntime({
    supergraph,
    unifiedGraphHandler,
    transportEntries,
    graphqlEndpoint: '/graphql',
    // A page of any origin may call with a bearer credential of its own and read what a client reads, but may never
    // read an answer the browser's session cookie bought: the runtime's default allowed credentials for every origin it
    // echoed, so a page of another origin of the same site (another port, a sibling subdomain) could read the signed-in
    // person's workspace. The public server also refuses such cookie requests outright.
    cors: { credentials: false, exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] },
    landingPage: false,
    graphiql: false,
    logging: options.log ? 'error' : false,
    // Earshot's own plugin gives the request id (useRequestId below); the runtime's would make a second one and a child logger per request.
    requestId: false,
    plugins: () => [
      useClientAddress(),
      // Before the plugins that wrap execution: it sets the execute function they wrap.
      useInProcessOperations(inProcessByName),
      useCodedRequestErrors(),
      ...useRequestLimits({ maxBodyBytes: options.maxBodyBytes, ...defaultOperationLimits }),
      // After the plugins that remake errors while results are processed (a 406 refusal, a limit's status): theirs get the id too.
      useRequestId(),
      // The billing subgraph checks the provider's signature on its webhook itself.
      useApiKeyAuth({
        authenticate: options.authenticate,
        authenticateSession: options.authenticateSession,
        publicRootFields,
      }),
      useLiveCredentials({ authenticate: options.authenticate, authenticateSession: options.authenticateSession, onCredentialChange: options.onCredentialChange }),
      useRateLimit({ limitPerMinute: options.rateLimitPerMinute, countRequests: options.countRequests }),
      useRetryLaterStatus(),
      useReadOnlyKeys({ publicRootFields }),
      useInProcessSubgraphs(options.inProcessSubgraphs ?? {}),
      // After the in-process subgraphs: it signs each request as the executor they chose sends it.
      useSignedSubgraphRequests({ secret: options.secret }),
      // Before the unreachable subgraphs: it wraps the fetch this one chose.
      useSubgraphHttp(),
      useUnreachableSubgraphs(),
      // After the signature: a request it answers from memory is neither signed nor sent; one it does not goes the way chosen before.
      ...(options.keywordTerms ? [useKeywordTermCache(options.keywordTerms)] : []),
      useSubscriptionErrors(),
      useInProcessCaller(),
      useSharedSubscriptions(),
    ],
  });
  // The runtime builds its schema on the first HTTP request; an operation over graphql-ws skips that step and, coming first, met no schema at all.
  await runtime.getSchema();
  return runtime;
}
