import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestIdFrom } from '../runtime/request-id.ts';
import type { Sql } from '../runtime/database.ts';
import { authenticateApiKey, countWorkspaceRequest, findWorkspace } from '../subgraphs/team/index.ts';

/**
 * GET /v1/whoami answered in one bare Node handler: the same store functions
 * (so the same SQL: authenticate, count against the rate limit, read the
 * workspace) and the same body and headers as Earshot, without the facade,
 * gateway and subgraph between them.
 */
export async function startWhoamiBaseline(sql: Sql, rateLimitPerMinute: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const key = bearer ? await authenticateApiKey(sql, bearer) : undefined;
    if (!key) {
      res.writeHead(401, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Invalid key', requestId } }));
      return;
    }
    const budget = await countWorkspaceRequest(sql, key.workspaceId);
    const workspace = await findWorkspace(sql, key.workspaceId);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      'x-ratelimit-limit': String(rateLimitPerMinute),
      'x-ratelimit-remaining': String(Math.max(0, rateLimitPerMinute - budget.used)),
      'x-ratelimit-reset': String(Math.max(1, Math.ceil((budget.windowStart.getTime() + 60_000 - Date.now()) / 1000))),
    });
    res.end(
      JSON.stringify({
        workspace: { id: workspace!.id, name: workspace!.name },
        auth: { kind: 'api_key', scope: key.scope, apiKeyId: key.id, expiresAt: key.expiresAt?.toISOString() ?? null },
        user: null,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
