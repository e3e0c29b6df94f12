import { databaseRetryAfterSeconds } from '../runtime/database-availability.ts';

/**
 * `/mcp`'s answer while the database is away or a request met its
 * deadline: HTTP 503 with `Retry-After`, and a JSON-RPC error an MCP client
 * can read, carrying the spec's code and `retryAfterSeconds` in `data`. Its
 * id is the call's when known; before the body is read it is unknown, so
 * `null`, as JSON-RPC 2.0 has it.
 */
export function mcpServiceUnavailable(requestId: string, message: string, id: string | number | null = null): Response {
  const body = {
    jsonrpc: '2.0',
    id,
    error: { code: -32000, message, data: { code: 'service_unavailable', requestId, retryAfterSeconds: databaseRetryAfterSeconds } },
  };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(databaseRetryAfterSeconds), 'x-request-id': requestId },
  });
}
