import { setTimeout as sleep } from 'node:timers/promises';
import { Response } from '@whatwg-node/server';
import { describe, expect, it } from 'vitest';
import { startPublicServer } from '../server/public-server.ts';
import { requestDeadlineMs } from '../server/request-deadline.ts';

describe('the public server', () => {
  it('answers a request its handler has not answered by the deadline with 503 service_unavailable and Retry-After', async () => {
    const server = await startPublicServer({ host: '127.0.0.1', port: 0, facade: () => new Promise<Response>(() => {}), databaseStatus: () => ({ up: false }) });
    try {
      const started = Date.now();
      const response = await fetch(`${server.url}/v1/whoami`, { headers: { 'x-request-id': 'stuck-request' } });
      const waited = Date.now() - started;
      expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: {
          error: {
            code: 'service_unavailable',
            message: 'No answer within 4.5 s: the database is not answering; retry shortly',
            requestId: 'stuck-request',
            retryAfterSeconds: 5,
          },
        },
      });
      expect(waited).toBeGreaterThanOrEqual(requestDeadlineMs - 50);
      expect(waited).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });

  it('answers an MCP request past the deadline with 503, Retry-After and a JSON-RPC error an MCP client reads', async () => {
    const server = await startPublicServer({ host: '127.0.0.1', port: 0, mcp: () => new Promise<Response>(() => {}), databaseStatus: () => ({ up: false }) });
    try {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'x-request-id': 'stuck-tool-call', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
      });
      expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: 'No answer within 4.5 s: the database is not answering; retry shortly',
            data: { code: 'service_unavailable', requestId: 'stuck-tool-call', retryAfterSeconds: 5 },
          },
        },
      });
    } finally {
      await server.close();
    }
  });

  // The answer said the database was not answering whatever kept the request, a slow outside service as much as a database away.
  it('says the request took too long, not that the database is away, when the database answers', async () => {
    const server = await startPublicServer({
      host: '127.0.0.1',
      port: 0,
      facade: () => new Promise<Response>(() => {}),
      mcp: () => new Promise<Response>(() => {}),
      databaseStatus: () => ({ up: true }),
    });
    try {
      const [rest, mcp] = await Promise.all([
        fetch(`${server.url}/v1/keywords`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"term":"slow feed"}' }),
        fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) }),
      ]);
      const message = 'No answer within 4.5 s: the request took too long, though the database answers; retry shortly';
      expect([rest.status, (await rest.json()).error.message, mcp.status, (await mcp.json()).error.message]).toEqual([503, message, 503, message]);
    } finally {
      await server.close();
    }
  });

  it('when closing, answers the request in flight, with Connection: close, and then stops', async () => {
    const server = await startPublicServer({
      host: '127.0.0.1',
      port: 0,
      facade: async () => {
        await sleep(500);
        return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const inFlight = fetch(`${server.url}/v1/slow`);
    await sleep(100);
    const closed = server.close();
    const response = await inFlight;
    expect({ status: response.status, connection: response.headers.get('connection'), body: await response.json() }).toEqual({
      status: 200,
      connection: 'close',
      body: { ok: true },
    });
    await closed;
    await expect(fetch(`${server.url}/v1/slow`)).rejects.toThrow();
  });
});
