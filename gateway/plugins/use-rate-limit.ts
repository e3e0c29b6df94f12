import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError } from '@graphql-tools/utils';
import { whenAnswerIsLate } from '../../runtime/late-answer-timer.ts';
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

/** Places in one workspace's count for one minute that this process claimed and has not yet given to a request. */
interface Lease {
  windowStart: Date;
  next: number;
  last: number;
}

interface WorkspaceCount {
  lease?: Lease;
  /** The count of the minute as last seen, which sizes the next claim. */
  seen?: { used: number; windowStart: Date };
  claiming: boolean;
  waiting: Waiting[];
}

/** The most places one claim takes beyond the requests waiting for it. */
const maxLeasedPlaces = 50;

/**
 * Places a claim takes beyond the requests waiting for it, when `left` of
 * the budget remained at the count last seen: also the most a process can
 * leave unused in a minute, and so, per other process, the most requests the
 * budget may refuse early (the tolerance).
 */
export const sparePlaces = (left: number) => Math.max(0, Math.min(maxLeasedPlaces, Math.floor(left / 10)));
const minuteMs = 60_000;
/**
 * How long a claim may take before the requests waiting on it are answered
 * 503 and the next request claims afresh: a statement sent as the database
 * froze may never settle, and every request of the workspace waits on the
 * claim under way. Places a late claim takes are counted and never served,
 * so the budget can only refuse early, never serve more.
 */
const claimWithinMs = 3_000;

function claimWithinTime(claim: Promise<Count>): Promise<Count> {
  return new Promise<Count>((resolve, reject) => {
    const cancel = whenAnswerIsLate(claimWithinMs, () =>
      reject(Object.assign(new Error(`The rate-limit count did not answer within ${claimWithinMs / 1000} s`), { code: 'DATABASE_NOT_ANSWERING' })),
    );
    claim.then(resolve, reject).finally(cancel);
  });
}

/**
 * Counts each request once, in PostgreSQL, with a statement per block of
 * requests rather than per request. A process claims places in a
 * workspace's count of the minute (one atomic `used = used + n`) and gives
 * them to its requests in turn, each request its own place, so no two
 * requests in any process share one and no more than the budget are ever
 * served. A claim takes the requests waiting for it plus up to a tenth of
 * what the minute had left when last seen (at most 50); near the end of the
 * budget, and for a workspace's first request of a minute, only the
 * waiting ones. Places claimed and not given out by the minute's end were
 * counted without being served: the documented tolerance (README,
 * "Limits").
 */
export function leasedCounter(limit: number, countRequests: RateLimitOptions['countRequests']): (workspaceId: string) => Promise<Count> {
  const workspaces = new Map<string, WorkspaceCount>();
  const current = (at: { windowStart: Date } | undefined, now: number) => at !== undefined && now < at.windowStart.getTime() + minuteMs;
  const fromLease = (state: WorkspaceCount): Count | undefined => {
    const lease = state.lease;
    if (!lease || lease.next > lease.last || !current(lease, Date.now())) return undefined;
    return { used: lease.next++, windowStart: lease.windowStart };
  };
  const forgetPastMinutes = () => {
    const now = Date.now();
    for (const [workspaceId, state] of workspaces) if (!state.claiming && !current(state.seen, now)) workspaces.delete(workspaceId);
  };
  const claim = (workspaceId: string, state: WorkspaceCount) => {
    const batch = state.waiting;
    state.waiting = [];
    state.claiming = true;
    const left = current(state.seen, Date.now()) ? limit - state.seen!.used : 0;
    const places = batch.length + sparePlaces(left);
    claimWithinTime(countRequests(workspaceId, places))
      .then(
        ({ used, windowStart }) => {
          const first = used - places + 1;
          batch.forEach((waiting, index) => waiting.resolve({ used: first + index, windowStart }));
          state.lease = { windowStart, next: first + batch.length, last: used };
          state.seen = { used, windowStart };
        },
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        state.claiming = false;
        const waiting = state.waiting;
        state.waiting = [];
        for (const each of waiting) {
          const count = fromLease(state);
          if (count) each.resolve(count);
          else state.waiting.push(each);
        }
        if (state.waiting.length > 0) claim(workspaceId, state);
      });
  };
  return (workspaceId) => {
    let state = workspaces.get(workspaceId);
    if (!state) {
      if (workspaces.size >= 1_000) forgetPastMinutes();
      state = { claiming: false, waiting: [] };
      workspaces.set(workspaceId, state);
    }
    const count = fromLease(state);
    if (count) return Promise.resolve(count);
    return new Promise<Count>((resolve, reject) => {
      state.waiting.push({ resolve, reject });
      if (!state.claiming) claim(workspaceId, state);
    });
  };
}

/**
 * One budget per workspace, shared by /v1, the compatibility API, GraphQL and
 * MCP and by every process, because the count lives in PostgreSQL (claimed
 * in blocks, see `leasedCounter`). It runs
 * after authentication and counts each client operation once; HTTP responses
 * carry `X-RateLimit-*`, and over the budget the answer is 429 `rate_limited`.
 */
export function useRateLimit(options: RateLimitOptions): GatewayPlugin {
  const limit = options.limitPerMinute ?? 600;
  const countRequest = leasedCounter(limit, options.countRequests);
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
