import { databaseRetryAfterSeconds } from '../runtime/database-availability.ts';

/**
 * `/mcp`'s answer while the database is away or a request met its
 * deadline: HTTP 503 with `Retry-After`, and a JSON-RPC error an MCP client
 * can read (the request's id is unknown here, so `null`, as JSON-RPC 2.0
 * has it), carrying the spec's code and `retryAfterSeconds` in `data`.
 */
export function mcpServiceUnavailable(requestId: string, message: string): Response {
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message, data: { code: 'service_unavailable', requestId, retryAfterSeconds: databaseRetryAfterSeconds } },
  };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(databaseRetryAfterSeconds), 'x-request-id': requestId },
  });
}
