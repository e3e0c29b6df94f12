import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addMember } from '../subgraphs/team/member-store.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { scanLink, scannedUnspent } from './link-scanners.ts';
import { collect, endedByCredential, newMention, rawSubscription, seedKeyword, storeUntilDelivered } from './live-mentions.ts';

let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

const password = 'correct horse battery';

async function ownedWorkspace(email: string) {
  const created = await provisionWorkspace(earshot.sql, `Workspace of ${email}`, { ownerEmail: email });
  await setUserPassword(earshot.sql, email, password);
  return created;
}

/** The cookies a response sets, by name, with their attributes. */
function setCookies(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.getSetCookie().map((cookie) => [cookie.slice(0, cookie.indexOf('=')), cookie]));
}

async function signIn(email: string, secret = password, workspaceId?: string) {
  const response = await earshot.rest('POST', '/v1/auth/password', { body: { email, password: secret, ...(workspaceId ? { workspaceId } : {}) } });
  const cookies = setCookies(response.headers);
  const value = (name: string) => cookies[name]?.split(';')[0].split('=')[1];
  return { response, cookies, session: value('earshot_session'), csrf: value('earshot_csrf') };
}

const withSession = (signedIn: { session?: string; csrf?: string }, csrf = true) => ({
  cookie: `earshot_session=${signedIn.session}; earshot_csrf=${signedIn.csrf}`,
  ...(csrf ? { 'x-csrf-token': signedIn.csrf! } : {}),
});

describe('password sign-in and sessions', () => {
  it('signs in with a password, sets HttpOnly SameSite=Lax cookies, and whoami shows the session and the user', async () => {
    const created = await ownedWorkspace('ada@example.com');
    const signedIn = await signIn('ADA@example.com');
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.response.body).toEqual({
      user: { ...created.owner, email: 'ada@example.com' },
      workspaceId: created.workspace.id,
      expiresAt: expect.stringMatching(/^\d{4}-/),
    });
    const days = (Date.parse(signedIn.response.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(signedIn.session).toMatch(/^[0-9A-Za-z]{40,}$/);
    expect(signedIn.cookies.earshot_session).toMatch(/; HttpOnly; Path=\/; SameSite=Lax; Expires=/);
    expect(signedIn.cookies.earshot_session).not.toContain('Secure');
    expect(signedIn.cookies.earshot_csrf).not.toContain('HttpOnly');
    expect(signedIn.response.headers.get('cache-control')).toBe('no-store');
    const stored = await earshot.sql`select * from sessions`;
    expect(JSON.stringify(stored)).not.toContain(signedIn.session);

    const whoami = await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) });
    expect(whoami.status).toBe(200);
    expect(whoami.body).toEqual({
      workspace: created.workspace,
      auth: { kind: 'session', scope: 'write', apiKeyId: null, expiresAt: signedIn.response.body.expiresAt },
      user: { id: created.owner!.id, email: 'ada@example.com', name: 'ada' },
    });
  });

  it('refuses a wrong password and an unknown address alike: 401 unauthorized, no cookie', async () => {
    await ownedWorkspace('bo@example.com');
    for (const attempt of [await signIn('bo@example.com', 'wrong password'), await signIn('nobody@example.com')]) {
      expect(attempt.response.status).toBe(401);
      expect(attempt.response.body.error).toMatchObject({ code: 'unauthorized', message: 'Wrong e-mail address or password' });
      expect(attempt.cookies).toEqual({});
    }
  });

  it('needs X-CSRF-Token matching the session on changes made with the cookie, and none with a bearer key', async () => {
    const created = await ownedWorkspace('cy@example.com');
    const member = await findOrCreateUser(earshot.sql, { email: 'cy-member@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
    const signedIn = await signIn('cy@example.com');

    const withoutHeader = await earshot.rest('DELETE', `/v1/members/${member.id}`, { headers: withSession(signedIn, false) });
    expect(withoutHeader.status).toBe(403);
    expect(withoutHeader.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('X-CSRF-Token') });
    const wrongHeader = await earshot.rest('DELETE', `/v1/members/${member.id}`, {
      headers: { ...withSession(signedIn, false), 'x-csrf-token': 'x'.repeat(signedIn.csrf!.length) },
    });
    expect(wrongHeader.status).toBe(403);
    expect((await earshot.rest('GET', '/v1/members', { key: created.apiKey })).body.data).toHaveLength(2);

    // The signed-in owner, with the header, may remove the member.
    const removed = await earshot.rest('DELETE', `/v1/members/${member.id}`, { headers: withSession(signedIn) });
    expect(removed.status).toBe(204);
    expect((await earshot.rest('GET', '/v1/members', { key: created.apiKey })).body.data).toHaveLength(1);
    // and the last owner stays, signed in or not.
    const lastOwner = await earshot.rest('DELETE', `/v1/members/${created.owner!.id}`, { headers: withSession(signedIn) });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.code).toBe('last_owner');

    // Bearer requests carry no cookie and need no token.
    const keyCreated = await earshot.rest('POST', '/v1/api-keys', { key: created.apiKey, body: { name: 'No CSRF needed' } });
    expect(keyCreated.status).toBe(200);
  });

  it("lets no page of another origin read /graphql with the session cookie, while a bearer call from it stays open", async () => {
    const created = await ownedWorkspace('cora@example.com');
    const signedIn = await signIn('cora@example.com');
    // Same site, other origin: a browser sends the SameSite=Lax cookie along; CORS must not let the page read even a refusal as credentialed.
    const origin = 'http://localhost:1';
    const graphql = (headers: Record<string, string>) =>
      fetch(`${earshot.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...headers }, body: JSON.stringify({ query: '{ whoami { workspace { id } } }' }) });

    const preflight = await fetch(`${earshot.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-csrf-token' },
    });
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const withCookie = await graphql({ cookie: `earshot_session=${signedIn.session}` });
    expect(withCookie.status).toBe(403);
    expect(withCookie.headers.get('access-control-allow-credentials')).toBeNull();

    const withKey = await graphql({ authorization: `Bearer ${created.apiKey}` });
    expect(withKey.headers.get('access-control-allow-origin')).toBe(origin);
    expect(withKey.headers.get('access-control-allow-credentials')).toBeNull();
  });
  it('signs out: the session stops working at once and the cookies are cleared', async () => {
    await ownedWorkspace('di@example.com');
    const signedIn = await signIn('di@example.com');
    expect((await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) })).status).toBe(200);

    const noToken = await earshot.rest('POST', '/v1/auth/sign-out', { headers: withSession(signedIn, false) });
    expect(noToken.status).toBe(403);
    const signedOut = await earshot.rest('POST', '/v1/auth/sign-out', { headers: withSession(signedIn) });
    expect(signedOut.status).toBe(204);
    const cleared = setCookies(signedOut.headers);
    expect(cleared.earshot_session).toMatch(/^earshot_session=; HttpOnly; .*Max-Age=0/);
    expect(cleared.earshot_csrf).toMatch(/^earshot_csrf=; .*Max-Age=0/);

    const after = await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
  });

  it('ends a session at its expiry: the cookie is refused like an unknown one', async () => {
    await ownedWorkspace('ex@example.com');
    const signedIn = await signIn('ex@example.com');
    expect((await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) })).status).toBe(200);
    const ended = await earshot.sql`update sessions set expires_at = now() - interval '1 second' where user_id = (select id from users where email = 'ex@example.com') returning id`;
    expect(ended).toHaveLength(1);
    const expired = await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('unauthorized');
    expect((await earshot.rest('POST', '/v1/auth/sign-out', { headers: withSession(signedIn) })).status).toBe(401);
  });

  it('rate-limits failed sign-ins per account: the 11th try within 15 minutes is 429 with Retry-After, even with the right password', async () => {
    await ownedWorkspace('eve@example.com');
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn('eve@example.com', `wrong ${attempt}`)).response.status).toBe(401);
    }
    const limited = await signIn('Eve@Example.com');
    expect(limited.response.status).toBe(429);
    expect(limited.response.body.error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    const retryAfter = Number(limited.response.headers.get('retry-after'));
    expect(retryAfter).toBe(limited.response.body.error.retryAfterSeconds);
    // Until the minute of the first failure is wholly 15 minutes old: 15 to 16 minutes after it.
    expect(retryAfter).toBeGreaterThan(10 * 60);
    expect(retryAfter).toBeLessThanOrEqual(16 * 60);
    expect(limited.cookies).toEqual({});
    // Another account is not affected.
    await ownedWorkspace('fay@example.com');
    expect((await signIn('fay@example.com')).response.status).toBe(200);
  });

  it('keeps a session to its own workspace: a user of A sees nothing of B and cannot sign in to B', async () => {
    const a = await ownedWorkspace('gus@example.com');
    const b = await ownedWorkspace('hal@example.com');
    expect((await signIn('gus@example.com', password, b.workspace.id)).response.status).toBe(401);
    const signedIn = await signIn('gus@example.com', password, a.workspace.id);
    const members = await earshot.rest('GET', '/v1/members', { headers: withSession(signedIn, false) });
    expect(members.body.data.map((m: { email: string }) => m.email)).toEqual(['gus@example.com']);
    const foreign = await earshot.rest('DELETE', `/v1/members/${b.owner!.id}`, { headers: withSession(signedIn) });
    expect(foreign.status).toBe(404);
  });

  it('ends the sessions of a removed member', async () => {
    const created = await ownedWorkspace('ivy@example.com');
    const admin = await findOrCreateUser(earshot.sql, { email: 'ivy-admin@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: admin.id, role: 'admin' });
    await setUserPassword(earshot.sql, 'ivy-admin@example.com', password);
    const adminSession = await signIn('ivy-admin@example.com');
    const ownerSession = await signIn('ivy@example.com');
    const protectedOwner = await earshot.rest('DELETE', `/v1/members/${created.owner!.id}`, { headers: withSession(adminSession) });
    expect(protectedOwner.status).toBe(403);
    expect(protectedOwner.body.error.code).toBe('protected_user');
    expect((await earshot.rest('DELETE', `/v1/members/${admin.id}`, { headers: withSession(ownerSession) })).status).toBe(204);
    expect((await earshot.rest('GET', '/v1/whoami', { headers: withSession(adminSession, false) })).status).toBe(401);
  });
});

describe('workspace switching', () => {
  it("lists the user's workspaces in whoami and switches the session to another of them, ending the old one", async () => {
    const first = await ownedWorkspace('sam@example.com');
    const second = await provisionWorkspace(earshot.sql, 'Second of sam', { ownerEmail: 'sam@example.com' });
    const foreign = await ownedWorkspace('tia@example.com');
    const signedIn = await signIn('sam@example.com');
    const whoami = await earshot.graphql('{ whoami { workspace { id } workspaces { id name role } } }', {}, undefined);
    expect(whoami.status).toBe(401);
    const listed = await fetch(`${earshot.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withSession(signedIn, false) },
      body: JSON.stringify({ query: '{ whoami { workspace { id } workspaces { id name role } } }' }),
    });
    expect(await listed.json()).toEqual({
      data: {
        whoami: {
          workspace: { id: first.workspace.id },
          workspaces: [
            { id: first.workspace.id, name: 'Workspace of sam@example.com', role: 'owner' },
            { id: second.workspace.id, name: 'Second of sam', role: 'owner' },
          ],
        },
      },
    });
    const byKey = await earshot.graphql('{ whoami { workspaces { id } } }', {}, first.apiKey);
    expect(byKey.body).toEqual({ data: { whoami: { workspaces: [] } } });

    const noCsrf = await earshot.rest('POST', '/v1/auth/switch-workspace', { headers: withSession(signedIn, false), body: { workspaceId: second.workspace.id } });
    expect(noCsrf.status).toBe(403);
    const notMine = await earshot.rest('POST', '/v1/auth/switch-workspace', { headers: withSession(signedIn), body: { workspaceId: foreign.workspace.id } });
    expect(notMine.status).toBe(404);
    expect(notMine.body.error).toMatchObject({ code: 'not_found', message: 'Workspace not found' });
    const byApiKey = await earshot.rest('POST', '/v1/auth/switch-workspace', { key: first.apiKey, body: { workspaceId: second.workspace.id } });
    expect(byApiKey.status).toBe(403);
    expect(byApiKey.body.error.code).toBe('forbidden');

    const switched = await earshot.rest('POST', '/v1/auth/switch-workspace', { headers: withSession(signedIn), body: { workspaceId: second.workspace.id } });
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({ user: { ...first.owner, email: 'sam@example.com' }, workspaceId: second.workspace.id, expiresAt: expect.any(String) });
    const cookies = setCookies(switched.headers);
    const value = (name: string) => cookies[name]?.split(';')[0].split('=')[1];
    const now = await earshot.rest('GET', '/v1/whoami', { headers: withSession({ session: value('earshot_session'), csrf: value('earshot_csrf') }, false) });
    expect(now.body.workspace).toEqual(second.workspace);
    expect((await earshot.rest('GET', '/v1/whoami', { headers: withSession(signedIn, false) })).status).toBe(401);
  });
});

describe('/graphql over HTTP with the session cookie', () => {
  const post = (headers: Record<string, string>, body: string, contentType = 'application/json') =>
    fetch(`${earshot.url}/graphql`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
  const createKey = JSON.stringify({ query: 'mutation { createApiKey(input: { name: "From a page" }) { id } }' });
  const whoami = JSON.stringify({ query: '{ whoami { auth { kind } } }' });

  // CORS answered every Origin with Access-Control-Allow-Credentials: a page of the same site on another
  // port (which the SameSite cookie reaches, and which reads the CSRF cookie) could read and change the workspace.
  it('refuses a page of another origin that acts with the cookie (403 forbidden), even with the CSRF header, and takes its own pages', async () => {
    const created = await ownedWorkspace('rex@example.com');
    const signedIn = await signIn('rex@example.com');
    const foreign = { origin: 'http://localhost:3000' };
    for (const body of [whoami, createKey]) {
      const refused = await post({ ...withSession(signedIn), ...foreign }, body);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-credentials')).toBeNull();
      expect(await refused.json()).toEqual({
        errors: [{ message: expect.stringContaining('Cross-site request refused'), extensions: { code: 'forbidden', requestId: refused.headers.get('x-request-id') } }],
      });
    }
    expect(await earshot.sql`select 1 from api_keys where name = 'From a page'`).toHaveLength(0);

    const ownPage = await post({ ...withSession(signedIn), origin: earshot.url }, whoami);
    expect(await ownPage.json()).toEqual({ data: { whoami: { auth: { kind: 'session' } } } });
    // A bearer credential from any page is a client's own: answered, readable, with no credentialed CORS.
    const bearer = await post({ authorization: `Bearer ${created.apiKey}`, cookie: `earshot_session=${signedIn.session}`, ...foreign }, whoami);
    expect(await bearer.json()).toEqual({ data: { whoami: { auth: { kind: 'api_key' } } } });
    expect([bearer.headers.get('access-control-allow-origin'), bearer.headers.get('access-control-allow-credentials')]).toEqual([foreign.origin, null]);
  });

  it('runs no mutation a form or a link can send with the cookie: text/plain, form-encoded without the CSRF header, GET', async () => {
    await ownedWorkspace('sol@example.com');
    const signedIn = await signIn('sol@example.com');
    const cookie = { cookie: `earshot_session=${signedIn.session}; earshot_csrf=${signedIn.csrf}` };
    const asText = await post(cookie, createKey, 'text/plain');
    expect(asText.status).toBe(415);
    const asForm = await post(cookie, `query=${encodeURIComponent('mutation { createApiKey(input: { name: "From a page" }) { id } }')}`, 'application/x-www-form-urlencoded');
    expect([asForm.status, (await asForm.json()).errors[0].extensions.code]).toEqual([403, 'forbidden']);
    const asLink = await fetch(`${earshot.url}/graphql?query=${encodeURIComponent('mutation { createApiKey(input: { name: "From a page" }) { id } }')}`, { headers: withSession(signedIn) });
    expect(asLink.status).toBe(405);
    expect(await earshot.sql`select 1 from api_keys where name = 'From a page'`).toHaveLength(0);
  });
});

describe('graphql-ws with the session cookie', () => {
  const clients: Client[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.dispose())));

  /** A graphql-ws client whose upgrade request carries these headers, as a browser's does (cookie, Origin). */
  function connectWith(server: TestEarshot, headers: Record<string, string>) {
    const upgrades: { status?: number }[] = [];
    class WithHeaders extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
        const upgrade: { status?: number } = {};
        upgrades.push(upgrade);
        this.on('unexpected-response', (_request, response) => {
          upgrade.status = response.statusCode;
          this.close();
        });
      }
    }
    const client = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WithHeaders, retryAttempts: 0 });
    clients.push(client);
    return { client, upgrades };
  }

  const mentionCreated = 'subscription { mentionCreated { id keyword { term } } }';

  it("delivers the signed-in workspace's new mentions to a page of Earshot's own origin", async () => {
    const created = await ownedWorkspace('ole@example.com');
    const keyword = await seedKeyword(earshot, created.apiKey, 'sessions live');
    const signedIn = await signIn('ole@example.com');
    const { client } = connectWith(earshot, { cookie: `earshot_session=${signedIn.session}`, origin: earshot.url });
    const events = collect(client, mentionCreated);
    const stored = await storeUntilDelivered(() => events.results.length > 0, (n) => newMention(earshot, created.workspace.id, keyword, `live ${n}`));
    expect(stored.map((mention) => mention.id)).toContain(events.results[0].data.mentionCreated.id);
    expect(events.results[0]).toEqual({ data: { mentionCreated: { id: expect.stringMatching(/^mm_/), keyword: { term: 'sessions live' } } } });
  });

  it('refuses the upgrade of a page of another site that carries the cookie (403), and a mutation over the socket without the CSRF header', async () => {
    await ownedWorkspace('pia@example.com');
    const signedIn = await signIn('pia@example.com');
    const crossSite = connectWith(earshot, { cookie: `earshot_session=${signedIn.session}`, origin: 'https://evil.example' });
    const refused = collect(crossSite.client, mentionCreated);
    const ended = await refused.ended;
    expect(refused.results).toEqual([]);
    expect(ended.error).toBeDefined();
    expect(crossSite.upgrades).toEqual([{ status: 403 }]);

    const sameSite = connectWith(earshot, { cookie: `earshot_session=${signedIn.session}`, origin: earshot.url });
    const mutation = collect(sameSite.client, 'mutation { createApiKey(input: { name: "Over the socket" }) { id } }');
    expect(await mutation.ended).toEqual({});
    expect(mutation.results).toEqual([
      { errors: [{ message: expect.stringContaining('X-CSRF-Token'), extensions: { code: 'forbidden', requestId: expect.stringMatching(/^req_/) } }] },
    ]);
  });

  it('refuses an ended session as unauthorized', async () => {
    await ownedWorkspace('quin@example.com');
    const signedIn = await signIn('quin@example.com');
    expect((await earshot.rest('POST', '/v1/auth/sign-out', { headers: withSession(signedIn) })).status).toBe(204);
    const { client } = connectWith(earshot, { cookie: `earshot_session=${signedIn.session}`, origin: earshot.url });
    const events = collect(client, mentionCreated);
    expect(await events.ended).toEqual({});
    expect(events.results).toEqual([
      { errors: [{ message: 'The session has ended; sign in again', extensions: { code: 'unauthorized', requestId: expect.stringMatching(/^req_/) } }] },
    ]);
  });

  it('takes only the origin of EARSHOT_PUBLIC_URL when it is set', async () => {
    const behindProxy = await startTestEarshot({ env: { EARSHOT_PUBLIC_URL: 'https://app.example/' }, publicOrigin: 'https://app.example' });
    try {
      const created = await provisionWorkspace(behindProxy.sql, 'Proxied', { ownerEmail: 'rex@example.com' });
      await setUserPassword(behindProxy.sql, 'rex@example.com', password);
      const response = await behindProxy.rest('POST', '/v1/auth/password', { body: { email: 'rex@example.com', password } });
      const cookie = setCookies(response.headers).earshot_session.split(';')[0];
      const ownHost = connectWith(behindProxy, { cookie, origin: behindProxy.url });
      await collect(ownHost.client, mentionCreated).ended;
      expect(ownHost.upgrades).toEqual([{ status: 403 }]);

      const keyword = await seedKeyword(behindProxy, created.apiKey, 'proxied');
      const publicPage = connectWith(behindProxy, { cookie, origin: 'https://app.example' });
      const events = collect(publicPage.client, mentionCreated);
      await storeUntilDelivered(() => events.results.length > 0, (n) => newMention(behindProxy, created.workspace.id, keyword, `proxied ${n}`));
      expect(events.results[0].data.mentionCreated.keyword).toEqual({ term: 'proxied' });
    } finally {
      await behindProxy.stop();
    }
  });
});

describe('a live subscription of a session that ends', () => {
  // A session's subscription noticed its end only at the next periodic look-up, up to 30 s later.
  it('ends at once when the session signs out: unauthorized, complete, close 4403', async () => {
    await ownedWorkspace('una@example.com');
    const signedIn = await signIn('una@example.com');
    const live = await rawSubscription(earshot, { headers: { cookie: `earshot_session=${signedIn.session}`, origin: earshot.url } });
    const signedOutAt = Date.now();
    expect((await earshot.rest('POST', '/v1/auth/sign-out', { headers: withSession(signedIn) })).status).toBe(204);
    expect(await live.closed).toEqual(endedByCredential.closed);
    expect(Date.now() - signedOutAt).toBeLessThan(3000);
    expect(live.messages).toEqual(endedByCredential.messages);
  });

  it("ends at once when its user is removed from the workspace, and leaves the remover's open", async () => {
    const created = await ownedWorkspace('vic@example.com');
    const member = await findOrCreateUser(earshot.sql, { email: 'vic-member@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
    await setUserPassword(earshot.sql, 'vic-member@example.com', password);
    const memberSession = await signIn('vic-member@example.com');
    const ownerSession = await signIn('vic@example.com');
    const removed = await rawSubscription(earshot, { headers: { cookie: `earshot_session=${memberSession.session}`, origin: earshot.url } });
    const kept = await rawSubscription(earshot, { headers: { cookie: `earshot_session=${ownerSession.session}`, origin: earshot.url } });
    const removedAt = Date.now();
    expect((await earshot.rest('DELETE', `/v1/members/${member.id}`, { headers: withSession(ownerSession) })).status).toBe(204);
    expect(await removed.closed).toEqual(endedByCredential.closed);
    expect(Date.now() - removedAt).toBeLessThan(3000);
    expect(removed.messages).toEqual(endedByCredential.messages);
    expect(kept.messages).toEqual([{ type: 'connection_ack' }]);
    expect(kept.socket.readyState).toBe(WebSocket.OPEN);
    kept.socket.close();
  });

  it('ends at its expiry', async () => {
    await ownedWorkspace('wes@example.com');
    const signedIn = await signIn('wes@example.com');
    const [{ expiresAt }] = await earshot.sql<{ expiresAt: Date }[]>`
      update sessions set expires_at = now() + interval '3 seconds'
      where user_id = (select id from users where email = 'wes@example.com') returning expires_at`;
    const live = await rawSubscription(earshot, { headers: { cookie: `earshot_session=${signedIn.session}`, origin: earshot.url } });
    expect(await live.closed).toEqual(endedByCredential.closed);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(Date.now() - expiresAt.getTime()).toBeLessThan(3000);
    expect(live.messages).toEqual(endedByCredential.messages);
  });
});

describe('magic-link sign-in', () => {
  let smtp: FakeSmtp;
  let mailing: TestEarshot;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    mailing = await startTestEarshot({ env: { EARSHOT_SMTP_URL: smtp.url, EARSHOT_MAIL_FROM: 'Earshot <signin@earshot.example>', EARSHOT_PUBLIC_URL: 'https://app.example' } });
  });
  afterAll(async () => {
    await mailing?.stop();
    await smtp?.close();
  });

  /** The link of the newest mail to `to`, as the recipient would read it in the text part. */
  async function linkSentTo(to: string, count: number): Promise<URL> {
    const mails = await eventually(async () => smtp.messages.filter((mail) => mail.to.includes(to)), (found) => found.length >= count);
    const mail = mails[count - 1];
    expect(mail.subject).toBe('Your Earshot sign-in link');
    // A transactional mail: no List-Unsubscribe.
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
    const link = /https:\/\/app\.example\S+/.exec(mail.text ?? '')?.[0];
    expect(link).toMatch(/^https:\/\/app\.example\/sign-in\/link\?token=[\w-]{43}$/);
    expect(mail.html).toContain(`href="${link}"`);
    return new URL(link!);
  }

  /** What the link's dashboard page does with it: spends its token against this server (the public address points at it in production). */
  const follow = (link: URL) => mailing.rest('GET', `/v1/auth/magic-link/verify${link.search}`);

  it('mails a link that signs in once, with Secure cookies on an https install; whoami shows the session', async () => {
    const created = await provisionWorkspace(mailing.sql, 'Linked', { ownerEmail: 'joy@example.com' });
    const sent = await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'Joy@Example.com' } });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ sent: true });
    const link = await linkSentTo('joy@example.com', 1);
    const stored = await mailing.sql`select * from magic_links`;
    expect(JSON.stringify(stored)).not.toContain(link.searchParams.get('token'));
    // A mail scanner's HEAD or a preview's prefetch of the verifying call spends nothing.
    expect(await scanLink(`${mailing.url}/v1/auth/magic-link/verify${link.search}`)).toEqual(scannedUnspent);

    const opened = await follow(link);
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ user: created.owner, workspaceId: created.workspace.id, expiresAt: expect.any(String) });
    const cookies = setCookies(opened.headers);
    expect(cookies.earshot_session).toMatch(/; HttpOnly; Path=\/; SameSite=Lax; Expires=[^;]+; Secure$/);
    expect(cookies.earshot_csrf).toMatch(/; Secure$/);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    const session = cookies.earshot_session.split(';')[0];
    const whoami = await mailing.rest('GET', '/v1/whoami', { headers: { cookie: session } });
    expect(whoami.body.auth.kind).toBe('session');
    expect(whoami.body.user).toEqual(created.owner);

    const again = await follow(link);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_token');
  });

  it('refuses a link older than 15 minutes and an unknown token', async () => {
    await provisionWorkspace(mailing.sql, 'Late', { ownerEmail: 'kim@example.com' });
    await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'kim@example.com' } });
    const link = await linkSentTo('kim@example.com', 1);
    await mailing.sql`update magic_links set expires_at = now() - interval '1 second' where used_at is null`;
    expect((await follow(link)).body.error.code).toBe('invalid_token');
    expect((await mailing.rest('GET', '/v1/auth/magic-link/verify?token=nothing-like-a-token')).status).toBe(401);
  });

  it('answers the same for an address no user has, and sends nothing', async () => {
    const before = smtp.messages.length;
    const sent = await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'stranger@example.com' } });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ sent: true });
    expect(smtp.messages.length).toBe(before);
  });

  it('sends nothing to a user removed from every workspace: such a link could only fail', async () => {
    await findOrCreateUser(mailing.sql, { email: 'gone@example.com' });
    const before = smtp.messages.length;
    const sent = await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'gone@example.com' } });
    expect([sent.status, sent.body]).toEqual([202, { sent: true }]);
    // A link asked for by a member afterwards is sent, so the dispatcher had its chance with the first.
    await provisionWorkspace(mailing.sql, 'Still here', { ownerEmail: 'here@example.com' });
    await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'here@example.com' } });
    await linkSentTo('here@example.com', 1);
    expect(smtp.messages.slice(before).map((mail) => mail.envelope.to)).toEqual([['here@example.com']]);
  });

  it('lets a user signed in by link set a first password, then change it only with the current one', async () => {
    const created = await provisionWorkspace(mailing.sql, 'Passwordless', { ownerEmail: 'lou@example.com' });
    await mailing.rest('POST', '/v1/auth/magic-link', { body: { email: 'lou@example.com' } });
    const opened = await follow(await linkSentTo('lou@example.com', 1));
    const cookies = setCookies(opened.headers);
    const session = cookies.earshot_session.split(';')[0];
    const csrf = cookies.earshot_csrf.split(';')[0];
    const headers = { cookie: `${session}; ${csrf}`, 'x-csrf-token': csrf.split('=')[1] };

    const byKey = await mailing.rest('PUT', '/v1/auth/password', { key: created.apiKey, body: { newPassword: 'first password!' } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('forbidden');
    const noCsrf = await mailing.rest('PUT', '/v1/auth/password', { headers: { cookie: session }, body: { newPassword: 'first password!' } });
    expect(noCsrf.status).toBe(403);
    const tooShort = await mailing.rest('PUT', '/v1/auth/password', { headers, body: { newPassword: 'short' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error).toMatchObject({ code: 'validation_error', field: 'newPassword' });

    expect((await mailing.rest('PUT', '/v1/auth/password', { headers, body: { newPassword: 'first password!' } })).status).toBe(204);
    const signIn = (password: string) => mailing.rest('POST', '/v1/auth/password', { body: { email: 'lou@example.com', password } });
    expect((await signIn('first password!')).status).toBe(200);

    const noCurrent = await mailing.rest('PUT', '/v1/auth/password', { headers, body: { newPassword: 'second password!' } });
    expect(noCurrent.status).toBe(400);
    expect(noCurrent.body.error).toMatchObject({ code: 'validation_error', field: 'currentPassword' });
    const changed = await mailing.rest('PUT', '/v1/auth/password', { headers, body: { currentPassword: 'first password!', newPassword: 'second password!' } });
    expect(changed.status).toBe(204);
    expect((await signIn('first password!')).status).toBe(401);
    expect((await signIn('second password!')).status).toBe(200);
  });

  it('is 501 email_not_configured where no SMTP server is set', async () => {
    const refused = await earshot.rest('POST', '/v1/auth/magic-link', { body: { email: 'ada@example.com' } });
    expect(refused.status).toBe(501);
    expect(refused.body.error.code).toBe('email_not_configured');
  });
});
