import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
});
afterAll(() => earshot?.stop());

describe('API keys over REST', () => {
  it('creates a key whose secret is shown once and only its hash is stored', async () => {
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'CI', scope: 'read' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^key_[0-9a-z]{26}$/),
      name: 'CI',
      prefix: created.body.key.slice(0, 14),
      scope: 'read',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastUsedAt: null,
      expiresAt: null,
      key: expect.stringMatching(/^mk_live_[0-9A-Za-z]{43}$/),
    });
    const stored = await earshot.sql`select * from api_keys where id = ${created.body.id}`;
    expect(JSON.stringify(stored)).not.toContain(created.body.key.slice(8));

    const listed = await earshot.rest('GET', '/v1/api-keys', { key });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((item: { id: string }) => item.id === created.body.id);
    expect(entry).toEqual({ ...created.body, key: undefined });
    expect(Object.keys(entry)).not.toContain('key');
  });

  it('defaults the scope to write and records lastUsedAt when a key is used', async () => {
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Default scope' } });
    expect(created.body.scope).toBe('write');
    expect((await earshot.rest('GET', '/v1/whoami', { key: created.body.key })).status).toBe(200);
    const listed = await earshot.rest('GET', '/v1/api-keys', { key });
    const entry = listed.body.data.find((item: { id: string }) => item.id === created.body.id);
    expect(entry.lastUsedAt).not.toBeNull();
  });

  // It was written at most once a minute, so a key used again within the minute kept showing its first use.
  it('moves lastUsedAt on every later use, the key authenticated from memory or not', async () => {
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Used twice' } });
    const lastUsedAt = async () =>
      (await earshot.rest('GET', '/v1/api-keys', { key })).body.data.find((item: { id: string }) => item.id === created.body.id).lastUsedAt as string;
    await earshot.rest('GET', '/v1/whoami', { key: created.body.key });
    const first = await lastUsedAt();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await earshot.rest('GET', '/v1/keywords', { key: created.body.key });
    const second = await lastUsedAt();
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
  });

  it('refuses every change from a read key, over REST and GraphQL', async () => {
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Reader', scope: 'read' } })).body.key;
    expect((await earshot.rest('GET', '/v1/api-keys', { key: readKey })).status).toBe(200);

    const refused = await earshot.rest('POST', '/v1/api-keys', { key: readKey, body: { name: 'Escalate' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'read_only_key', requestId: refused.headers.get('x-request-id') });

    const malformed = await earshot.rest('POST', '/v1/api-keys', { key: readKey, body: '{"name":' });
    expect(malformed.status).toBe(403);

    const viaGraphQL = await earshot.graphql('mutation { createApiKey(input: { name: "Escalate" }) { id } }', {}, readKey);
    expect(viaGraphQL.status).toBe(403);
    expect(viaGraphQL.body.errors[0].extensions.code).toBe('read_only_key');
    const keys = await earshot.rest('GET', '/v1/api-keys', { key });
    expect(keys.body.data.map((item: { name: string }) => item.name)).not.toContain('Escalate');

    // A public route (a sign-in, Slack's callback) needs no credential: a read key sent along is not refused as a change.
    const signIn = { email: 'nobody@example.com', password: 'not the password' };
    const anonymous = await earshot.rest('POST', '/v1/auth/password', { body: signIn });
    const withReadKey = await earshot.rest('POST', '/v1/auth/password', { key: readKey, body: signIn });
    expect(anonymous.body.error.code).not.toBe('read_only_key');
    expect({ status: withReadKey.status, code: withReadKey.body.error.code }).toEqual({ status: anonymous.status, code: anonymous.body.error.code });
  });

  /** A key refused 401 from here on, yet still listed until revoked (spec 5.6). */
  async function expectExpired(created: { body: { id: string; key: string } }) {
    const refused = await earshot.rest('GET', '/v1/whoami', { key: created.body.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    const listed = await earshot.rest('GET', '/v1/api-keys', { key });
    expect(listed.body.data.map((item: { id: string }) => item.id)).toContain(created.body.id);
  }

  it.each(['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00'])('refuses expiresAt %s, an instant PostgreSQL cannot store, with 400 validation_error', async (expiresAt) => {
    const refused = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Out of range', expiresAt } });
    expect([refused.status, refused.body.error]).toEqual([
      400,
      { code: 'validation_error', field: 'expiresAt', message: 'expiresAt: must be an ISO 8601 timestamp', requestId: refused.headers.get('x-request-id') },
    ]);
  });

  it('stops a key at its expiresAt instant', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Short', expiresAt } });
    expect(created.status).toBe(200);
    expect(created.body.expiresAt).toBe(expiresAt);
    const before = await earshot.rest('GET', '/v1/whoami', { key: created.body.key });
    expect(before.body.auth.expiresAt).toBe(expiresAt);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    await expectExpired(created);
  });

  it('makes a key whose expiresAt has passed: listed, and refused from its first request', async () => {
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Expired', expiresAt: '2001-01-01T00:00:00Z' } });
    expect(created.status).toBe(200);
    expect(created.body.expiresAt).toBe('2001-01-01T00:00:00.000Z');
    await expectExpired(created);
  });

  it('refuses an expiresAt that is not a timestamp, and a key without a name or with an unknown scope, naming the field', async () => {
    const response = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Bad', expiresAt: 'tomorrow' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'expiresAt' });
    const noName = await earshot.rest('POST', '/v1/api-keys', { key, body: { scope: 'read' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatchObject({ code: 'validation_error', field: 'name' });
    const badScope = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'x', scope: 'admin' } });
    expect(badScope.body.error).toMatchObject({ code: 'validation_error', field: 'scope' });
  });

  it('revokes a key at once and takes it off the list', async () => {
    const created = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'Doomed' } });
    const revoked = await earshot.rest('DELETE', `/v1/api-keys/${created.body.id}`, { key });
    expect(revoked.status).toBe(204);
    const used = await earshot.rest('GET', '/v1/whoami', { key: created.body.key });
    expect(used.status).toBe(401);
    expect(used.body.error.code).toBe('unauthorized');
    const listed = await earshot.rest('GET', '/v1/api-keys', { key });
    expect(listed.body.data.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
    const again = await earshot.rest('DELETE', `/v1/api-keys/${created.body.id}`, { key });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
  });

  it("keeps workspaces apart: A neither sees nor revokes B's keys", async () => {
    const other = await earshot.createWorkspace('Other');
    const otherKeys = await earshot.rest('GET', '/v1/api-keys', { key: other.apiKey });
    const otherKeyId = otherKeys.body.data[0].id;
    const mine = await earshot.rest('GET', '/v1/api-keys', { key });
    expect(mine.body.data.map((item: { id: string }) => item.id)).not.toContain(otherKeyId);
    const revoke = await earshot.rest('DELETE', `/v1/api-keys/${otherKeyId}`, { key });
    expect(revoke.status).toBe(404);
    expect((await earshot.rest('GET', '/v1/whoami', { key: other.apiKey })).status).toBe(200);
  });

  it('answers whoami with the workspace and credential', async () => {
    const whoami = await earshot.rest('GET', '/v1/whoami', { key });
    expect(whoami.status).toBe(200);
    expect(whoami.body).toEqual({
      workspace: { id: workspaceId, name: 'Acme' },
      auth: { kind: 'api_key', scope: 'write', apiKeyId: expect.stringMatching(/^key_/), expiresAt: null },
      user: null,
    });
  });
});
