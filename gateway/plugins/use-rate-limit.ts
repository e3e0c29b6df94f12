import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import type { EarshotGatewayContext } from '../request-state.ts';
import { lookUpInDatabase } from '../service-unavailable.ts';

interface Count {
  used: number;
  windowStart: Date;
}

export interface RateLimitOptions {
  /** Requests a minute per workspace; default 600 (spec part 8). */
  limitPerMinute?: number;
  /** Counts `requests` requests for the workspace in its current minute window and returns the count, theirs included, and the window's start. A database that is away makes it 503 `service_unavailable`. */
  countRequests(workspaceId: string, requests: number): Promise<Count>;
}

interface Budget {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface Waiting {
  resolve(count: Count): void;
  reject(error: unknown): void;
}

/**
 * Counts each request exactly once, with fewer statements: while one count
 * of a workspace is on its way to PostgreSQL, the requests of that
 * workspace arriving meanwhile wait and are then counted together by one
 * statement, each given its own place in the count. Under load that is one
 * row update for a burst instead of one a request, each queued behind the
 * row's lock; a lone request is counted at once.
 */
function coalescedCounter(countRequests: RateLimitOptions['countRequests']): (workspaceId: string) => Promise<Count> {
  const queues = new Map<string, Waiting[]>();
  const send = (workspaceId: string, batch: Waiting[]) => {
    countRequests(workspaceId, batch.length).then(
      ({ used, windowStart }) => batch.forEach((waiting, index) => waiting.resolve({ used: used - batch.length + 1 + index, windowStart })),
      (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
    ).finally(() => {
      const next = queues.get(workspaceId)!;
      if (next.length === 0) queues.delete(workspaceId);
      else {
        queues.set(workspaceId, []);
        send(workspaceId, next);
      }
    });
  };
  return (workspaceId) =>
    new Promise<Count>((resolve, reject) => {
      const queue = queues.get(workspaceId);
      if (queue) {
        queue.push({ resolve, reject });
        return;
      }
      queues.set(workspaceId, []);
      send(workspaceId, [{ resolve, reject }]);
    });
}

/**
 * One budget per workspace, shared by /v1, the compatibility API, GraphQL and
 * MCP and by every process, because the count lives in PostgreSQL. It runs
 * after authentication and counts each client operation once; HTTP responses
 * carry `X-RateLimit-*`, and over the budget the answer is 429 `rate_limited`.
 */
export function useRateLimit(options: RateLimitOptions): GatewayPlugin {
  const limit = options.limitPerMinute ?? 600;
  const countRequest = coalescedCounter(options.countRequests);
  const budgets = new WeakMap<Request, Budget>();
  return {
    async onContextBuilding({ context }) {
      const { auth } = context as unknown as EarshotGatewayContext;
      if (!auth) return;
      const { used, windowStart } = await lookUpInDatabase(countRequest(auth.workspaceId));
      const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + 60_000 - Date.now()) / 1000));
      const budget = { limit, remaining: Math.max(0, limit - used), resetSeconds };
      const request = (context as { request?: Request }).request;
      if (request) budgets.set(request, budget);
      if (used > limit) {
        throw createGraphQLError(`Rate limit of ${limit} requests a minute reached; retry in ${resetSeconds} s`, {
          extensions: {
            code: 'rate_limited',
            retryAfterSeconds: resetSeconds,
            http: { status: 429, headers: { 'retry-after': String(resetSeconds) } },
          },
        });
      }
    },
    onResponse({ request, response }) {
      const budget = budgets.get(request);
      if (!budget) return;
      response.headers.set('x-ratelimit-limit', String(budget.limit));
      response.headers.set('x-ratelimit-remaining', String(budget.remaining));
      response.headers.set('x-ratelimit-reset', String(budget.resetSeconds));
    },
  };
}
