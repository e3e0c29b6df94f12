import http from 'node:http';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { TextBody } from '../text-body.ts';

/**
 * A subgraph's answer as the HTTP executor reads it: its status, headers
 * and text (`@graphql-tools/executor-http` reads nothing else of a JSON
 * answer). Its text is decoded as `Response.text()` decodes it.
 */
class SubgraphAnswer extends TextBody {
  readonly ok: boolean;
  readonly headers: Headers;
  constructor(
    readonly status: number,
    readonly statusText: string,
    rawHeaders: string[],
    body: Buffer,
  ) {
    super(new TextDecoder().decode(body));
    this.ok = status >= 200 && status < 300;
    this.headers = new Headers();
    for (let index = 0; index < rawHeaders.length; index += 2) this.headers.append(rawHeaders[index], rawHeaders[index + 1]);
  }
}

/**
 * A POST of a JSON body over `node:http`, its length declared; the request
 * ends, and the promise rejects, when `signal` aborts. It asks for no
 * content coding, and the subgraphs use none.
 */
function post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal | undefined): Promise<SubgraphAnswer> {
  return new Promise((resolve, reject) => {
    // Node's global agent, as the runtime's fetch used: it keeps connections open, and closes one idle a second before the subgraph's announced keep-alive timeout (an agent without a timeout of its own ignores that hint, and reused a connection as the subgraph closed it: ECONNRESET, answered 503).
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => resolve(new SubgraphAnswer(response.statusCode!, response.statusMessage ?? http.STATUS_CODES[response.statusCode!] ?? '', response.rawHeaders, Buffer.concat(chunks))));
    });
    request.end(body);
  });
}

/**
 * Queries and mutations go to a subgraph at an `http:` address over
 * `node:http` (its global agent, which keeps connections open), and its answer comes back as its
 * text: the Fetch API stack (`@whatwg-node/node-fetch`) made a request
 * object, a URL, a body, a stream piped through a `PassThrough` and a
 * response object for each, on every subgraph fetch. Anything else (an
 * `https:` address, a body that is not a string, a method other than POST)
 * keeps the runtime's fetch. A subgraph that cannot be reached still rejects the fetch,
 * which `use-unreachable-subgraphs.ts` answers.
 */
export function useSubgraphHttp(): GatewayPlugin {
  return {
    onFetch({ url, options, executionRequest, setFetchFn }) {
      if (!executionRequest || !url.startsWith('http:') || options.method !== 'POST' || typeof options.body !== 'string') return;
      const headers = options.headers;
      if (!headers || typeof headers !== 'object' || headers instanceof Headers || Array.isArray(headers)) return;
      setFetchFn(((target: string, init: RequestInit) => post(target, init.headers as Record<string, string>, init.body as string, init.signal ?? undefined)) as unknown as typeof fetch);
    },
  };
}
