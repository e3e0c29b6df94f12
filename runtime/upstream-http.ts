import { setTimeout as sleep } from 'node:timers/promises';

/** A platform failed after every retry; a request that waits on it answers 502 `upstream_unavailable`. */
export class UpstreamError extends Error {
  constructor(
    readonly platform: string,
    /** What went wrong, without the platform's name in front (the message has it). */
    readonly reason: string,
    /** HTTP status of the last attempt; undefined for network errors, time-outs and malformed bodies. */
    readonly status?: number,
    /** Seconds the platform asked us to wait (429 `Retry-After`, Stack Exchange `backoff`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${platform}: ${reason}`);
  }
}

/**
 * A connector lacks a credential its platform cannot be used without. Retrying
 * cannot help until an operator sets `variable`, so pollers should record it
 * and skip the platform rather than back off.
 */
export class UpstreamConfigurationError extends UpstreamError {
  constructor(platform: string, readonly variable: string, purpose: string) {
    super(platform, `${variable} is not set; ${purpose}`);
  }
}

export interface UpstreamRequestOptions {
  platform: string;
  url: string | URL;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Per-attempt time limit; default 10 s. */
  timeoutMs?: number;
  /** Attempts in all, the first included; default 3. */
  attempts?: number;
  /** First back-off; doubles per attempt unless the platform names a wait. Default 500 ms. */
  backoffMs?: number;
  /** Longest wait we honour from a `Retry-After`; a longer one fails the call now. Default 30 s. */
  maxRetryAfterMs?: number;
  /**
   * A platform's own way of saying "wait, then ask again" beyond 429/5xx and
   * `Retry-After` (GitHub's 403 with `X-RateLimit-Remaining: 0`, X's
   * `x-rate-limit-reset`): the wait in ms, or undefined when the response is
   * not such a signal. A response it names is retried like a 429.
   */
  platformWaitMs?: (response: UpstreamResponse) => number | undefined;
  /** Default `follow`; `manual` returns each 3xx so the caller can vet every hop (feeds: the private-address rule). */
  redirect?: 'follow' | 'manual';
}

/** The retry knobs of `UpstreamRequestOptions`, for connectors to take from their callers (tests shorten them). */
export type RetryPolicy = Pick<UpstreamRequestOptions, 'attempts' | 'backoffMs' | 'timeoutMs' | 'maxRetryAfterMs'>;

/**
 * For a call a client's request waits on (a checkout, a Slack install): the
 * public port answers every request within 4.5 s, so the call has about
 * 3.5 s in all, two attempts of 1.5 s a quarter second apart, and a
 * platform asking for a wait gives up at once. A platform slow or down is
 * then `502 upstream_unavailable` (spec 7), not the deadline's 503.
 */
export const whileClientWaits: RetryPolicy = { attempts: 2, timeoutMs: 1_500, backoffMs: 250, maxRetryAfterMs: 0 };

/** `whileClientWaits` for a call that must not be repeated (an OAuth code is spent once): one attempt of 3.5 s. */
export const onceWhileClientWaits: RetryPolicy = { attempts: 1, timeoutMs: 3_500, maxRetryAfterMs: 0 };

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** fetch says only "fetch failed"; the cause says what did (`connect ECONNREFUSED 127.0.0.1:9001`). */
function networkFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error && error.cause.message ? `${error.message}: ${error.cause.message}` : error.message;
}

/** A status worth asking again for (time-out, rate limit, server error); any other error status is the request's own fault. */
export const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * One HTTP call to a platform with the retry policy every connector shares:
 * time-outs, network errors, 408, 429 and 5xx are retried with exponential
 * back-off (or the platform's `Retry-After`); any other status is returned
 * for the connector to judge. 304 is a success (conditional GET).
 */
export async function requestUpstream(options: UpstreamRequestOptions): Promise<UpstreamResponse> {
  const attempts = options.attempts ?? 3;
  let backoff = options.backoffMs ?? 500;
  let lastError: UpstreamError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let wait = backoff;
    try {
      const response = await fetch(options.url, {
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'Earshot/0.0.1 (+mention tracking)', ...options.headers },
        body: options.body,
        redirect: options.redirect ?? 'follow',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      const text = await response.text();
      const platformWait = options.platformWaitMs?.({ status: response.status, headers: response.headers, text });
      if (!retryableStatus(response.status) && platformWait === undefined) return { status: response.status, headers: response.headers, text };
      const asked = retryAfterMs(response.headers) ?? platformWait;
      lastError = new UpstreamError(options.platform, `HTTP ${response.status}`, response.status, asked === undefined ? undefined : Math.ceil(asked / 1000));
      if (asked !== undefined) {
        if (asked > (options.maxRetryAfterMs ?? 30_000)) throw lastError;
        wait = asked;
      }
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      lastError = new UpstreamError(options.platform, networkFailure(error));
    }
    if (attempt < attempts) await sleep(wait);
    backoff *= 2;
  }
  throw lastError!;
}

/** `requestUpstream` for JSON APIs: a non-2xx status or a body that is not JSON is an `UpstreamError`. */
export async function getUpstreamJson<T>(options: UpstreamRequestOptions): Promise<T> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const response = await requestUpstream(options);
    if (response.status < 200 || response.status >= 300) {
      throw new UpstreamError(options.platform, `HTTP ${response.status}: ${response.text.slice(0, 200)}`, response.status);
    }
    try {
      return JSON.parse(response.text) as T;
    } catch {
      // A truncated or garbled body is a passing fault like a 5xx: try again.
      if (attempt >= attempts) throw new UpstreamError(options.platform, 'malformed JSON body', response.status);
      await sleep((options.backoffMs ?? 500) * 2 ** (attempt - 1));
    }
  }
}

/**
 * The base address of a platform's API: `EARSHOT_UPSTREAM_<PLATFORM>` or the
 * real one. `apiRoot` is the path a connector puts first on every call
 * (`/2.3`, `/api/v1`); API references often write it into the base
 * (`https://api.stackexchange.com/2.3`), so a base given that way is taken
 * without it rather than doubling it.
 */
export function upstreamBase(platform: string, realBase: string, env: NodeJS.ProcessEnv = process.env, apiRoot?: string): string {
  const base = (env[`EARSHOT_UPSTREAM_${platform.toUpperCase()}`] || realBase).replace(/\/+$/, '');
  return apiRoot && base.endsWith(apiRoot) ? base.slice(0, -apiRoot.length) : base;
}
