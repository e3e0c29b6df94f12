import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestIdFrom } from '../runtime/request-id.ts';
import type { Sql } from '../runtime/database.ts';
import { findKeywordsByIdsAnyWorkspace, keywordDirectory } from '../subgraphs/keywords/index.ts';
import { listMentions, mentionRecord } from '../subgraphs/mentions/index.ts';
import { type AuthenticatedKey, authenticateApiKey, findWorkspace } from '../subgraphs/team/index.ts';

type Body = Record<string, unknown>;

/** The reads of each route, as Earshot's subgraphs make them, minus the gateway's rate-limit count. */
const routes: Record<string, (sql: Sql, key: AuthenticatedKey) => Promise<Body>> = {
  async '/v1/whoami'(sql, key) {
    const workspace = await findWorkspace(sql, key.workspaceId);
    return {
      workspace: { id: workspace!.id, name: workspace!.name },
      auth: { kind: 'api_key', scope: key.scope, apiKeyId: key.id, expiresAt: key.expiresAt?.toISOString() ?? null },
      user: null,
    };
  },
  async '/v1/mentions'(sql, key) {
    const page = await listMentions(sql, keywordDirectory, key.workspaceId, {});
    const keywords = await findKeywordsByIdsAnyWorkspace(sql, [...new Set(page.nodes.map((mention) => mention.keywordId))]);
    const terms = new Map(keywords.map((keyword) => [keyword.id, keyword.term]));
    return { data: page.nodes.map((mention) => mentionRecord(mention, terms.get(mention.keywordId)!)), nextCursor: page.nextCursor };
  },
};

/**
 * `GET /v1/whoami` and the first page of `GET /v1/mentions` answered in one
 * bare Node handler: the same store functions (so the same SQL) and the
 * same bodies as Earshot, without the facade, gateway and subgraphs between
 * them, and without counting the request against a rate limit, so nothing
 * is written per request (the key's `last_used_at` at most once a minute).
 */
export async function startRestBaseline(sql: Sql): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const key = bearer ? await authenticateApiKey(sql, bearer) : undefined;
    const route = routes[req.url ?? ''];
    if (!key || !route) {
      res.writeHead(key ? 404 : 401, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
      res.end(JSON.stringify({ error: { code: key ? 'not_found' : 'unauthorized', message: 'Not served here', requestId } }));
      return;
    }
    const body = await route(sql, key);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
    res.end(JSON.stringify(body));
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
