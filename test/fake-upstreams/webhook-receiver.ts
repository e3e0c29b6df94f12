import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as received. */
  body: string;
  at: number;
}

/** How the receiver answers one request: a status, headers, and an optional stall before answering. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next requests with these, in order, then 200 again. */
  answerNext(...answers: ReceiverAnswer[]): void;
  /** The parsed bodies received, in arrival order. */
  bodies(): any[];
  close(): Promise<void>;
}

/** A webhook endpoint on loopback that keeps every request it gets, raw. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queued: ReceiverAnswer[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({ path: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = queued.shift() ?? { status: 200 };
      const reply = () => {
        if (outgoing.destroyed) return;
        outgoing.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        outgoing.end('ok');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerNext: (...answers) => void queued.push(...answers),
    bodies: () => received.map((request) => JSON.parse(request.body)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies `X-Mentions-Signature` as a receiver should: HMAC of the raw body with the secret, compared in constant time. */
export function signatureMatches(request: ReceivedWebhook, secret: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(request.body).digest('hex'));
  const given = Buffer.from(String(request.headers['x-mentions-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
