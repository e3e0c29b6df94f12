import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import type { EarshotGatewayContext } from '../request-state.ts';
import { lookUpInDatabase } from '../service-unavailable.ts';

export interface RateLimitOptions {
  /** Requests a minute per workspace; default 600 (spec part 8). */
  limitPerMinute?: number;
  /** Counts one request for the workspace in its current minute window and returns the count and the window's start. A database that is away makes it 503 `service_unavailable`. */
  countRequest(workspaceId: string): Promise<{ used: number; windowStart: Date }>;
}

interface Budget {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * One budget per workspace, shared by /v1, the compatibility API, GraphQL and
 * MCP and by every process, because the count lives in PostgreSQL. It runs
 * after authentication and counts each client operation once; HTTP responses
 * carry `X-RateLimit-*`, and over the budget the answer is 429 `rate_limited`.
 */
export function useRateLimit(options: RateLimitOptions): GatewayPlugin {
  const limit = options.limitPerMinute ?? 600;
  const budgets = new WeakMap<Request, Budget>();
  return {
    async onContextBuilding({ context }) {
      const { auth } = context as unknown as EarshotGatewayContext;
      if (!auth) return;
      const { used, windowStart } = await lookUpInDatabase(options.countRequest(auth.workspaceId));
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
