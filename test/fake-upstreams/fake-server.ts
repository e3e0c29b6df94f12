import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Faults a fake can be told to serve instead of its next answers.
 * `lost-answer`: the request is handled (whatever it does is done) but the
 * connection closes before the answer, as when a network drops it on the way back.
 */
export type FailureKind = 'rate-limit' | 'server-error' | 'malformed' | 'slow' | 'lost-answer';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body: unknown;
}

export interface FakeUpstream {
  /** Base address to put in `EARSHOT_UPSTREAM_<PLATFORM>`. */
  url: string;
  /** Every request received, faults included, in arrival order. */
  requests: RecordedRequest[];
  /** Serve `kind` for the next `times` requests (default 1), then answer normally again. */
  failNext(kind: FailureKind, times?: number): void;
  /** Drops the faults still queued: answers normally from the next request on. */
  recover(): void;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  /** `Retry-After` of a rate-limit fault, in seconds. Default 0 so tests do not wait. */
  retryAfterSeconds?: number;
  /** How long a slow fault stalls before answering. Default 5 s, beyond any test's time-out. */
  slowMs?: number;
  /** The platform's own rate-limit answer; default a 429 with `Retry-After`. */
  rateLimitResponse?: (retryAfterSeconds: number) => FakeResponse;
}

/**
 * A platform's routes on a local port. `route` answers a request or returns
 * null for "no such endpoint" (404); it may also answer 400 for a request that
 * breaks the real API's rules, so connectors cannot drift from them unseen.
 * It may answer later (a promise), as a platform doing work before answering does.
 */
export async function startFakeServer(
  route: (request: RecordedRequest) => FakeResponse | null | Promise<FakeResponse | null>,
  options: FakeServerOptions = {},
): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const failures: FailureKind[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const retryAfterSeconds = options.retryAfterSeconds ?? 0;

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const address = new URL(incoming.url ?? '/', 'http://fake');
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: address.pathname,
        query: address.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const send = (response: FakeResponse) => {
        if (outgoing.destroyed) return;
        const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
        outgoing.writeHead(response.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...response.headers });
        outgoing.end(text);
      };
      const answer = () => Promise.resolve(route(request)).then((response) => send(response ?? notFound));
      const failure = failures.shift();
      if (failure === 'slow') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void answer();
        }, options.slowMs ?? 5000);
        timers.add(timer);
      } else if (failure === 'lost-answer') {
        void Promise.resolve(route(request)).then(() => outgoing.destroy());
      } else if (failure === 'rate-limit') {
        send(options.rateLimitResponse?.(retryAfterSeconds) ?? { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: { error: 'rate limited' } });
      } else if (failure === 'server-error') {
        send({ status: 500, body: { error: 'internal error' } });
      } else if (failure === 'malformed') {
        send({ status: 200, body: '{"truncated": [' });
      } else {
        void answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    recover() {
      failures.length = 0;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const notFound: FakeResponse = { status: 404, body: { error: 'not found' } };

/**
 * Whether `text` answers a search box query the way the platforms do for
 * plain terms: a quoted phrase must appear as written, otherwise every word,
 * case-insensitively.
 */
export function matchesSearch(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  const phrases = [...query.matchAll(/"([^"]+)"/g)].map((match) => match[1].toLowerCase());
  const words = query.replace(/"[^"]*"/g, ' ').toLowerCase().split(/\s+/).filter(Boolean);
  return [...phrases, ...words].every((part) => haystack.includes(part));
}

/** One page of `items` by a 0-based page number. */
export function pageOf<T>(items: T[], page: number, size: number): T[] {
  return items.slice(page * size, page * size + size);
}
