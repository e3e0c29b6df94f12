import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

// Two processes on one database: `first` runs everything, `second` is a
// gateway of its own over the first's subgraphs. Each keeps the keys it
// authenticated in memory; a change made through either must reach both.
let first: TestEarshot;
let second: TestEarshot;
let ownerKey: string;

const whoami = '{ whoami { auth { apiKeyId scope } } }';
/** How soon the other process must refuse a revoked key (issue 18). */
const propagationMs = 1000;

beforeAll(async () => {
  first = await startTestEarshot();
  second = await startTestEarshot({ subgraphUrls: first.subgraphUrls }, { role: 'gateway', databaseUrl: first.databaseUrl });
  ownerKey = (await first.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await second?.stop();
  await first?.stop();
});

async function newKey(body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const created = await first.rest('POST', '/v1/api-keys', { key: ownerKey, body: { name: 'Cached', ...body } });
  expect(created.status).toBe(200);
  return created.body;
}

const refused = { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'unauthorized' }) })] };

describe('API keys kept in memory across processes', () => {
  it('refuses a key in the other process within a second of its revoke', async () => {
    const { id, key } = await newKey();
    // Both processes have now read the key and answer it from memory.
    for (const process of [first, second]) {
      expect((await process.graphql(whoami, {}, key)).body).toEqual({ data: { whoami: { auth: { apiKeyId: id, scope: 'write' } } } });
    }
    expect((await first.rest('DELETE', `/v1/api-keys/${id}`, { key: ownerKey })).status).toBe(204);
    // The process that revoked it refuses it at once.
    expect((await first.rest('GET', '/v1/whoami', { key })).status).toBe(401);
    const elsewhere = await eventually(() => second.graphql(whoami, {}, key), (answer) => answer.status === 401, propagationMs);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual(refused);
  });

  it('hears of a change made in SQL, outside any process: a key cut to read only', async () => {
    const { id, key } = await newKey();
    expect((await second.graphql(whoami, {}, key)).body.data.whoami.auth.scope).toBe('write');
    await first.sql`update api_keys set scope = 'read' where id = ${id}`;
    const answer = await eventually(() => second.graphql(whoami, {}, key), (reply) => reply.body.data?.whoami.auth.scope === 'read', propagationMs);
    expect(answer.body).toEqual({ data: { whoami: { auth: { apiKeyId: id, scope: 'read' } } } });
  });

  it('still stops a key kept in memory at its expiresAt instant', async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const { key } = await newKey({ expiresAt: expiresAt.toISOString() });
    expect((await second.graphql(whoami, {}, key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 100));
    const after = await second.graphql(whoami, {}, key);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(refused);
  });
});
