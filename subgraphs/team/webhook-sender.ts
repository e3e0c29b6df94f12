import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress, privateUrlsAllowed } from '../../runtime/public-address.ts';

/** What one webhook request came to. `retryable` is spec 3.4's transient failure: time-out, network error, 408, 429, 5xx. */
export type WebhookOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; retryable: boolean; retryAfterSeconds?: number };

export interface WebhookRequest {
  url: string;
  /** Every header sent: the channel's own with the service's laid over them. */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

class RefusedAddressError extends Error {}

/**
 * Connections are kept alive between deliveries to the same endpoint. The
 * address guard runs when a connection is made, so a kept connection was
 * checked when it was opened; a process that allows private addresses and
 * one that does not never share one.
 */
const newAgents = () => ({ 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) });
const agentsByRule = { private: newAgents(), public: newAgents() };

/**
 * The address the socket connects to is checked, not the one a separate
 * look-up once gave: a host that re-resolves to a private address between
 * the check at create time and the send is refused here (no DNS rebinding).
 */
function guardedLookup(env: NodeJS.ProcessEnv) {
  return (hostname: string, options: object, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const hidden = addresses.find(({ address }) => isPrivateAddress(address));
      if (hidden && !privateUrlsAllowed(env)) {
        return callback(new RefusedAddressError(`host ${hostname} is a private or loopback address (${hidden.address})`), []);
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function retryAfterSeconds(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** One POST of a webhook delivery, no retry (the outbox retries); the answer's body is read and ignored. */
export function postWebhook(request: WebhookRequest): Promise<WebhookOutcome> {
  return new Promise((settle) => {
    let settled = false;
    const resolve = (outcome: WebhookOutcome) => {
      if (!settled) settle(outcome);
      settled = true;
    };
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return resolve({ ok: false, status: null, error: 'not a valid URL', retryable: false });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return resolve({ ok: false, status: null, error: 'only http and https URLs are sent to', retryable: false });
    }
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal) && isPrivateAddress(literal) && !privateUrlsAllowed(request.env)) {
      return resolve({ ok: false, status: null, error: `refused: ${literal} is a private or loopback address`, retryable: false });
    }
    const client = url.protocol === 'https:' ? https : http;
    const body = Buffer.from(request.body, 'utf8');
    let outgoing: http.ClientRequest;
    try {
      outgoing = client.request(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(body.length) },
        lookup: guardedLookup(request.env) as never,
        agent: agentsByRule[privateUrlsAllowed(request.env) ? 'private' : 'public'][url.protocol as 'http:' | 'https:'],
      });
    } catch (error) {
      // A header Node cannot write (a channel saved before its values were checked as printable ASCII) fails every attempt alike.
      return resolve({ ok: false, status: null, error: `nothing was sent: ${(error as Error).message}`, retryable: false });
    }
    const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${request.timeoutMs / 1000} s`)), request.timeoutMs);
    outgoing.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve({ ok: true, status });
        const retryable = status === 408 || status === 429 || status >= 500;
        const wait = retryable ? retryAfterSeconds(response.headers['retry-after']) : undefined;
        resolve({ ok: false, status, error: `HTTP ${status}`, retryable, ...(wait !== undefined ? { retryAfterSeconds: wait } : {}) });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        resolve({ ok: false, status: null, error: error.message, retryable: true });
      });
    });
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      if (error instanceof RefusedAddressError) return resolve({ ok: false, status: null, error: `refused: ${error.message}`, retryable: false });
      const cause = (error as NodeJS.ErrnoException).code ? `${(error as NodeJS.ErrnoException).code}: ${error.message}` : error.message;
      resolve({ ok: false, status: null, error: cause, retryable: true });
    });
    outgoing.end(body);
  });
}
