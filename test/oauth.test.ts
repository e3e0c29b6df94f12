import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizationServer } from '../oauth/authorization-server.ts';
import { manualClock } from '../runtime/clock.ts';
import { createLogger } from '../runtime/logger.ts';
import { addMember } from '../subgraphs/team/member-store.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { startTestEarshotOnPort, type TestEarshot } from './harness.ts';
import { endedByCredential, rawSubscription } from './live-mentions.ts';
import {
  authorizedTokens,
  authorizeUrl,
  browse,
  consent,
  cookieHeader,
  hiddenFields,
  pkcePair,
  redirectUri,
  registerClient,
  signInCookie,
  submitForm,
  tokenRequest,
} from './oauth-flow.ts';

const accessTokenSeconds = 600;
const clock = manualClock(new Date());
let earshot: TestEarshot;
let base: string;
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  const started = await startTestEarshotOnPort(
    (port) => ({ oauthAccessTokenSeconds: accessTokenSeconds, env: { EARSHOT_PUBLIC_URL: `http://127.0.0.1:${port}`, EARSHOT_SMTP_URL: smtp.url } }),
    { clock },
  );
  earshot = started.earshot;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

const password = 'correct horse battery';

/** A workspace owned by `email`, who can sign in with the password. */
async function ownedWorkspace(email: string, name = `Workspace of ${email}`) {
  const created = await provisionWorkspace(earshot.sql, name, { ownerEmail: email });
  await setUserPassword(earshot.sql, email, password);
  return created;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('discovery and registration', () => {
  it('publishes authorization-server metadata (RFC 8414) and protected-resource metadata (RFC 9728), the /mcp form included', async () => {
    const server = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(server.status).toBe(200);
    expect(await server.json()).toEqual({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['read', 'write'],
      service_documentation: `${base}/v1/openapi.json`,
      authorization_response_iss_parameter_supported: true,
    });
    const resource = { authorization_servers: [base], scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'], resource_documentation: `${base}/v1/openapi.json` };
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()).toEqual({ ...resource, resource: base, resource_name: 'Earshot API' });
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual({ ...resource, resource: `${base}/mcp`, resource_name: 'Earshot MCP server' });
  });

  it('serves an issuer with a path where RFC 8414 and RFC 9728 put it, so the MCP SDK client discovers it', async () => {
    // EARSHOT_PUBLIC_URL behind a proxy's prefix: the issuer has a path, and clients look for its documents at the
    // well-known name followed by that path, on the issuer's origin.
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const issuer = `${origin}/earshot`;
    server.on(
      'request',
      createAuthorizationServer({ sql: earshot.sql, env: { EARSHOT_PUBLIC_URL: `${issuer}/` }, clock, lifetimes: { accessTokenSeconds }, log: createLogger('silent'), databaseUp: () => true }),
    );
    try {
      const metadata = await discoverAuthorizationServerMetadata(issuer);
      expect(metadata).toMatchObject({ issuer, authorization_endpoint: `${issuer}/oauth/authorize`, token_endpoint: `${issuer}/oauth/token`, registration_endpoint: `${issuer}/oauth/register` });
      expect((await fetch(`${origin}/.well-known/oauth-authorization-server/earshot`)).status).toBe(200);
      expect(await discoverOAuthProtectedResourceMetadata(`${issuer}/mcp`)).toMatchObject({ resource: `${issuer}/mcp`, authorization_servers: [issuer] });
      expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource/earshot`)).json()).toMatchObject({ resource: issuer, resource_name: 'Earshot API' });
      // A proxy that strips the prefix still reaches the bare names.
      expect(await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()).toMatchObject({ issuer });
      expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({ resource: `${issuer}/mcp` });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('registers every client as a public one (RFC 7591): no secret is issued, whatever was asked for', async () => {
    const registered = await registerClient(base, { client_name: 'Claude', token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'] });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Claude',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    const [stored] = await earshot.sql`select * from oauth_clients where id = ${registered.body.client_id}`;
    expect(stored.metadata).toEqual(registered.body);

    const noRedirect = await registerClient(base, { redirect_uris: [] });
    expect(noRedirect).toEqual({ status: 400, body: { error: 'invalid_client_metadata', error_description: 'redirect_uris: name at least one' } });
    // OAuth 2.1 and the MCP authorization spec: https, or http on loopback only; RFC 6749 3.1.2: no fragment (RFC 7591 3.2.2 names the error).
    for (const [uri, problem] of [
      ['http://app.example/callback', 'must use https, or http on a loopback address only'],
      ['https://app.example/callback#done', 'must not have a fragment'],
    ]) {
      expect(await registerClient(base, { redirect_uris: [uri] })).toEqual({ status: 400, body: { error: 'invalid_redirect_uri', error_description: `redirect_uris: ${uri} ${problem}` } });
    }
    for (const uri of ['https://app.example/callback', 'http://localhost:6274/oauth/callback', 'http://[::1]/callback', 'cursor://anysphere.cursor-retrieval/oauth/callback']) {
      expect((await registerClient(base, { redirect_uris: [uri] })).status).toBe(201);
    }
    // RFC 7591 2: the registered scope is what the client may ask for; only Earshot's own are.
    expect((await registerClient(base, { scope: 'read offline_access write admin' })).body.scope).toBe('read write');
    expect((await registerClient(base, { scope: 'admin' })).body).not.toHaveProperty('scope');
  });

  it('does not lock one address out after a few dozen registrations or token requests (the SDK’s own limits: 20 an hour, 50 a quarter hour)', async () => {
    for (let i = 0; i < 30; i++) expect((await registerClient(base)).status).toBe(201);
    const client = (await registerClient(base)).body.client_id;
    for (let i = 0; i < 60; i++) {
      expect(await tokenRequest(base, { grant_type: 'refresh_token', client_id: client, refresh_token: `ort_made_up_${i}` })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
  });

  it('answers a body too large or unreadable with invalid_request and the parser’s 4xx, never server_error', async () => {
    const post = async (path: string, contentType: string, body: string) => {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
      return { status: response.status, body: await response.json() };
    };
    expect(await post('/oauth/token', 'application/x-www-form-urlencoded', `code=${'x'.repeat(1_048_576)}`)).toEqual({
      status: 413,
      body: { error: 'invalid_request', error_description: 'The request body is too large' },
    });
    expect(await post('/oauth/register', 'application/json', '{"client_name":')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The request body could not be read' },
    });
  });

  // A NUL character or a lone surrogate reached PostgreSQL and came back as the SDK's 500 server_error.
  it('refuses metadata it cannot store with invalid_client_metadata, and takes a client_id holding NUL for an unknown client', async () => {
    expect(await registerClient(base, { client_name: 'Assistant\u0000' })).toEqual({
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: 'client_name: must not contain NUL characters' },
    });
    expect(await registerClient(base, { redirect_uris: [`${redirectUri}/\ud800`] })).toEqual({
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: 'redirect_uris.0: must not contain lone surrogates (unpaired halves of UTF-16 pairs)' },
    });
    const unknownClient = { error: 'invalid_client', error_description: 'Invalid client_id' };
    const token = await tokenRequest(base, { grant_type: 'authorization_code', client_id: '\u0000', code: 'x', code_verifier: pkcePair().verifier });
    expect({ status: token.status, body: token.body }).toEqual({ status: 400, body: unknownClient });
    const authorize = await browse(authorizeUrl(base, { client_id: 'a\u0000b', code_challenge: pkcePair().challenge, state: 's' }));
    expect({ status: authorize.status, body: JSON.parse(authorize.html) }).toEqual({ status: 400, body: unknownClient });
  });
});

describe('the authorization-code flow with PKCE', () => {
  it('runs as a client runs it: register, authorize while signed in, consent, token, whoami and GraphQL, refresh with rotation, reuse detection, revocation', async () => {
    const created = await ownedWorkspace('ada@example.com', 'Acme');
    const other = await provisionWorkspace(earshot.sql, 'Acme labs');
    await addMember(earshot.sql, { workspaceId: other.workspace.id, userId: created.owner!.id, role: 'member' });
    const cookie = await signInCookie(base, 'ada@example.com', password);
    const client = (await registerClient(base)).body;
    const { verifier, challenge } = pkcePair();

    const page = await browse(authorizeUrl(base, { client_id: client.client_id, code_challenge: challenge, state: 's-1', scope: 'read write', resource: `${base}/mcp` }), cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('<h1>Allow Test assistant to use Earshot?</h1>');
    expect(page.html).toContain('Signed in as <strong>ada@example.com</strong>');
    expect(page.html).toContain('your browser goes to <strong>127.0.0.1:9</strong>');
    expect(page.html).toContain('<label for="workspace">Workspace</label>');
    expect(page.html).toContain(`<option value="${created.workspace.id}" selected>Acme</option><option value="${other.workspace.id}">Acme labs</option>`);
    expect(page.html).toContain('<fieldset><legend>Access</legend><label><input type="radio" name="grant_scope" value="write" checked>');
    expect(hiddenFields(page.html, '/oauth/authorize')).toEqual({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'read write',
      state: 's-1',
      resource: `${base}/mcp`,
      csrf: expect.any(String),
    });

    const redirect = await consent(base, page, cookie, { workspaceId: created.workspace.id });
    expect([...redirect.keys()]).toEqual(['code', 'state', 'iss']);
    expect(redirect.get('state')).toBe('s-1');
    expect(redirect.get('iss')).toBe(base);
    const code = redirect.get('code')!;

    const exchange = { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: redirectUri, resource: `${base}/mcp` };
    const wrongVerifier = await tokenRequest(base, { ...exchange, code_verifier: pkcePair().verifier });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier does not match the challenge' } });
    const tokens = await tokenRequest(base, { ...exchange, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toEqual({
      access_token: expect.stringMatching(/^oat_[0-9A-Za-z]{43}$/),
      token_type: 'Bearer',
      expires_in: accessTokenSeconds,
      refresh_token: expect.stringMatching(/^ort_[0-9A-Za-z]{43}$/),
      scope: 'read write',
    });
    const stored = JSON.stringify(await earshot.sql`select * from oauth_tokens`) + JSON.stringify(await earshot.sql`select * from oauth_authorization_codes`);
    for (const secret of [code, tokens.body.access_token, tokens.body.refresh_token]) expect(stored).not.toContain(secret);

    const whoami = await earshot.rest('GET', '/v1/whoami', { key: tokens.body.access_token });
    expect(whoami).toMatchObject({ status: 200 });
    expect(whoami.body).toEqual({
      workspace: created.workspace,
      auth: { kind: 'oauth', scope: 'write', apiKeyId: null, expiresAt: new Date(clock.now().getTime() + accessTokenSeconds * 1000).toISOString() },
      user: { id: created.owner!.id, name: 'ada', email: 'ada@example.com' },
    });
    const created_keyword = await earshot.rest('POST', '/v1/keywords', { key: tokens.body.access_token, body: { term: 'acme widgets' } });
    expect(created_keyword.status).toBe(201);
    const graphql = await earshot.graphql('{ whoami { auth { kind } user { email } } keywords { nodes { term } } }', {}, tokens.body.access_token);
    expect(graphql.body).toEqual({ data: { whoami: { auth: { kind: 'oauth' }, user: { email: 'ada@example.com' } }, keywords: { nodes: [{ term: 'acme widgets' }] } } });

    // The code works once.
    expect(await tokenRequest(base, { ...exchange, code_verifier: verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The authorization code was used already; the tokens issued for it are revoked' },
    });
    expect((await earshot.rest('GET', '/v1/whoami', { key: tokens.body.access_token })).status).toBe(401);
  });

  it('rotates refresh tokens, and a used one presented again revokes the whole family', async () => {
    const created = await ownedWorkspace('bo@example.com');
    const cookie = await signInCookie(base, 'bo@example.com', password);
    const first = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    const refresh = (token: string) => tokenRequest(base, { grant_type: 'refresh_token', client_id: first.clientId, refresh_token: token });

    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ access_token: expect.stringMatching(/^oat_/), token_type: 'Bearer', expires_in: accessTokenSeconds, refresh_token: expect.stringMatching(/^ort_/), scope: 'read write' });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await earshot.rest('GET', '/v1/whoami', { key: second.body.access_token })).status).toBe(200);

    // A narrower scope for the new access token is allowed, a wider one is not.
    const narrowed = await refresh(second.body.refresh_token);
    const readOnly = await tokenRequest(base, { grant_type: 'refresh_token', client_id: first.clientId, refresh_token: narrowed.body.refresh_token, scope: 'read' });
    expect(readOnly.body.scope).toBe('read');
    expect((await earshot.rest('GET', '/v1/whoami', { key: readOnly.body.access_token })).body.auth.scope).toBe('read');

    const reused = await refresh(first.refresh_token);
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token was used already; every token of its grant is revoked' } });
    expect(await refresh(readOnly.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token is invalid, expired or revoked' } });
    for (const token of [first.access_token, second.body.access_token, readOnly.body.access_token]) {
      const refused = await earshot.rest('GET', '/v1/whoami', { key: token });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toMatchObject({ code: 'unauthorized', message: 'The API key or access token is invalid, expired or revoked' });
    }

    // Another client cannot use this client's refresh token.
    const fresh = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    const stranger = (await registerClient(base)).body.client_id;
    expect(await tokenRequest(base, { grant_type: 'refresh_token', client_id: stranger, refresh_token: fresh.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await tokenRequest(base, { grant_type: 'refresh_token', client_id: fresh.clientId, refresh_token: fresh.refresh_token })).status).toBe(200);
  });

  it('revokes tokens (RFC 7009): an access token alone, a refresh token with its whole grant; unknown tokens answer the same', async () => {
    const created = await ownedWorkspace('cy@example.com');
    const cookie = await signInCookie(base, 'cy@example.com', password);
    const tokens = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    const revoke = async (token: string, clientId = tokens.clientId) => {
      const response = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token }) });
      return { status: response.status, body: await response.json() };
    };

    expect(await revoke('oat_nothing')).toEqual({ status: 200, body: {} });
    // Another client's revocation changes nothing.
    expect(await revoke(tokens.access_token, (await registerClient(base)).body.client_id)).toEqual({ status: 200, body: {} });
    expect((await earshot.rest('GET', '/v1/whoami', { key: tokens.access_token })).status).toBe(200);

    expect(await revoke(tokens.access_token)).toEqual({ status: 200, body: {} });
    expect((await earshot.rest('GET', '/v1/whoami', { key: tokens.access_token })).status).toBe(401);
    const renewed = await tokenRequest(base, { grant_type: 'refresh_token', client_id: tokens.clientId, refresh_token: tokens.refresh_token });
    expect(renewed.status).toBe(200);

    expect(await revoke(renewed.body.refresh_token)).toEqual({ status: 200, body: {} });
    expect((await earshot.rest('GET', '/v1/whoami', { key: renewed.body.access_token })).status).toBe(401);
    expect(await tokenRequest(base, { grant_type: 'refresh_token', client_id: tokens.clientId, refresh_token: renewed.body.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  // A token's subscription noticed a revocation only at the next periodic look-up, up to 30 s later.
  it('ends the live subscription of an access token at once when the token, its grant or its user\'s membership goes', async () => {
    const created = await ownedWorkspace('dot@example.com');
    const cookie = await signInCookie(base, 'dot@example.com', password);
    const signedIn = { cookie, 'x-csrf-token': /earshot_csrf=([^;]+)/.exec(cookie)![1] };
    const ended = async (token: string, end: () => Promise<number>) => {
      const live = await rawSubscription(earshot, { bearer: token });
      const endedAt = Date.now();
      expect(await end()).toBeLessThan(300);
      expect(await live.closed).toEqual(endedByCredential.closed);
      expect(Date.now() - endedAt).toBeLessThan(3000);
      expect(live.messages).toEqual(endedByCredential.messages);
    };
    const revoked = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    await ended(revoked.access_token, async () =>
      (await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: revoked.clientId, token: revoked.access_token }) })).status,
    );
    const disconnected = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    const [app] = (await earshot.sql<{ id: string }[]>`select id from oauth_grants where client_id = ${disconnected.clientId}`);
    await ended(disconnected.access_token, async () => (await earshot.rest('DELETE', `/v1/connected-apps/${app.id}`, { headers: signedIn })).status);

    const member = await findOrCreateUser(earshot.sql, { email: 'dot-member@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
    await setUserPassword(earshot.sql, 'dot-member@example.com', password);
    const memberTokens = await authorizedTokens(base, { cookie: await signInCookie(base, 'dot-member@example.com', password), workspaceId: created.workspace.id });
    await ended(memberTokens.access_token, async () => (await earshot.rest('DELETE', `/v1/members/${member.id}`, { headers: signedIn })).status);
  });

  it('takes PKCE with S256 only, known scopes and registered redirect URIs, and tells the client how it failed', async () => {
    const client = (await registerClient(base)).body.client_id;
    const { challenge } = pkcePair();
    const redirectError = async (params: Record<string, string>) => {
      const answer = await browse(authorizeUrl(base, { client_id: client, code_challenge: challenge, state: 's', ...params }));
      expect(answer.status).toBe(302);
      const query = new URL(answer.location!).searchParams;
      expect(answer.location!.startsWith(`${redirectUri}?`)).toBe(true);
      // RFC 6749 4.1.2.1: the error description is printable ASCII without '"' and '\\'; RFC 9207: iss on errors too.
      expect(query.get('error_description')).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
      expect(query.get('iss')).toBe(base);
      return { error: query.get('error'), state: query.get('state') };
    };
    // The parameters the SDK's handler checks itself (it left state out of these redirects, and put a zod error's JSON in the description).
    expect(await redirectError({ code_challenge_method: 'plain' })).toEqual({ error: 'invalid_request', state: 's' });
    expect(await redirectError({ code_challenge: '' })).toEqual({ error: 'invalid_request', state: 's' });
    expect(await redirectError({ response_type: 'token' })).toEqual({ error: 'unsupported_response_type', state: 's' });
    expect(await redirectError({ code_challenge: 'too-short' })).toEqual({ error: 'invalid_request', state: 's' });
    expect(await redirectError({ scope: 'read admin' })).toEqual({ error: 'invalid_scope', state: 's' });
    expect(await redirectError({ resource: 'https://elsewhere.example/mcp' })).toEqual({ error: 'invalid_target', state: 's' });
    const missing = await browse(`${base}/oauth/authorize?${new URLSearchParams({ client_id: client, response_type: 'code', code_challenge_method: 'S256', state: 't' })}`);
    expect(Object.fromEntries(new URL(missing.location!).searchParams)).toEqual({ error: 'invalid_request', error_description: 'code_challenge is required', state: 't', iss: base });

    const unregistered = await browse(authorizeUrl(base, { client_id: client, code_challenge: challenge, redirect_uri: 'https://evil.example/callback' }));
    expect(unregistered.status).toBe(400);
    expect(JSON.parse(unregistered.html)).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
    const unknownClient = await browse(authorizeUrl(base, { client_id: 'nobody', code_challenge: challenge }));
    expect(JSON.parse(unknownClient.html)).toEqual({ error: 'invalid_client', error_description: 'Invalid client_id' });

    expect(await tokenRequest(base, { grant_type: 'client_credentials', client_id: client })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    // RFC 6749 5.2: a missing parameter is named in a description RFC 6749 allows; no client named is invalid_client, and a
    // client that tried the Authorization header is 401 with a challenge of its scheme; 3.2: the parameters come as a form.
    expect(await tokenRequest(base, { client_id: client })).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'grant_type is required' } });
    expect(await tokenRequest(base, { grant_type: 'authorization_code', client_id: client, code: 'oac_x' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'code_verifier is required' },
    });
    expect(await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: 'ort_x' })).toMatchObject({ status: 400, body: { error: 'invalid_client', error_description: 'client_id is required' } });
    const basic = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client}:secret`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'ort_x' }),
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe(`Basic realm="${base}"`);
    expect(await basic.json()).toMatchObject({ error: 'invalid_client' });
    const json = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token', client_id: client, refresh_token: 'ort_x' }) });
    expect({ status: json.status, body: await json.json() }).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'Send the parameters as application/x-www-form-urlencoded' } });
    expect(await tokenRequest(base, { grant_type: 'authorization_code', client_id: client, code: 'oac_made_up', code_verifier: 'x'.repeat(43) })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The authorization code is invalid or expired' },
    });
  });

  it('wants the redirect_uri back at the token endpoint when the authorization request named one, and not when it took the only registered one (RFC 6749 4.1.3)', async () => {
    const created = await ownedWorkspace('rd@example.com');
    const cookie = await signInCookie(base, 'rd@example.com', password);
    const client = (await registerClient(base)).body.client_id;
    const codeFor = async (url: string) => {
      const { verifier, challenge } = pkcePair();
      const redirect = await consent(base, await browse(url.replace('CHALLENGE', challenge), cookie), cookie, { workspaceId: created.workspace.id });
      return { grant_type: 'authorization_code', client_id: client, code: redirect.get('code')!, code_verifier: verifier };
    };

    const named = await codeFor(authorizeUrl(base, { client_id: client, code_challenge: 'CHALLENGE' }));
    expect(await tokenRequest(base, named)).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'redirect_uri is required: the authorization request named one' } });
    expect(await tokenRequest(base, { ...named, redirect_uri: redirectUri })).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });

    const unnamed = await codeFor(`${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client, code_challenge: 'CHALLENGE', code_challenge_method: 'S256' })}`);
    expect(await tokenRequest(base, unnamed)).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
  });
});

describe('sign-in and consent pages', () => {
  it('signs a person in with a password on the way (CSRF-protected form), then shows the consent page', async () => {
    const created = await ownedWorkspace('di@example.com');
    const client = (await registerClient(base)).body.client_id;
    const url = authorizeUrl(base, { client_id: client, code_challenge: pkcePair().challenge, state: 'keep me' });

    const signInPage = await browse(url);
    expect(signInPage.status).toBe(200);
    expect(signInPage.html).toContain('<h1>Sign in to Earshot</h1>');
    expect(signInPage.html).toContain('<label for="email">E-mail address</label>');
    expect(signInPage.html).toContain('<label for="password">Password</label>');
    let cookie = cookieHeader(signInPage.headers);
    expect(cookie).toMatch(/^earshot_oauth_csrf=[\w-]{43}$/);
    const fields = hiddenFields(signInPage.html, '/oauth/sign-in');
    expect(new URLSearchParams(fields.authorize).get('state')).toBe('keep me');

    const forged = await submitForm(`${base}/oauth/sign-in`, { ...fields, csrf: 'forged', email: 'di@example.com', password }, cookie);
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('This form has expired');
    const wrong = await submitForm(`${base}/oauth/sign-in`, { ...fields, email: 'di@example.com', password: 'not it at all' }, cookie);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('<p class="error" role="alert">Wrong e-mail address or password</p>');
    expect(wrong.html).toContain('value="di@example.com"');

    const signedIn = await submitForm(`${base}/oauth/sign-in`, { ...fields, email: 'di@example.com', password }, cookie);
    expect(signedIn.status).toBe(303);
    const continued = new URL(signedIn.location!);
    expect(continued.origin + continued.pathname).toBe(`${base}/oauth/authorize`);
    expect(Object.fromEntries(continued.searchParams)).toEqual(Object.fromEntries(new URL(url).searchParams));
    cookie = cookieHeader(signedIn.headers, cookie);
    expect(cookie).toMatch(/earshot_session=/);
    const consentPage = await browse(signedIn.location!, cookie);
    expect(consentPage.html).toContain('Signed in as <strong>di@example.com</strong>');
    expect((await consent(base, consentPage, cookie, { workspaceId: created.workspace.id })).get('state')).toBe('keep me');
  });

  it("signs a person in behind a proxy's prefix: the forms post under the issuer's path and their cookie is scoped to it", async () => {
    // EARSHOT_PUBLIC_URL https://…/earshot with a proxy that strips /earshot: the browser only ever sees the prefixed paths.
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/earshot`;
    const authorizationServer = createAuthorizationServer({ sql: earshot.sql, env: { EARSHOT_PUBLIC_URL: issuer }, clock, lifetimes: { accessTokenSeconds }, log: createLogger('silent'), databaseUp: () => true });
    server.on('request', (req, res) => {
      req.url = req.url!.replace(/^\/earshot(?=\/)/, '');
      authorizationServer(req, res);
    });
    try {
      const created = await ownedWorkspace('pi@example.com');
      const clientId = (await registerClient(issuer)).body.client_id;
      const { verifier, challenge } = pkcePair();
      const signInPage = await browse(authorizeUrl(issuer, { client_id: clientId, code_challenge: challenge }));
      expect(signInPage.html).toContain('<form method="post" action="/earshot/oauth/sign-in">');
      expect(signInPage.headers.getSetCookie()).toEqual([expect.stringMatching(/^earshot_oauth_csrf=[\w-]{43}; HttpOnly; Path=\/earshot\/oauth; SameSite=Lax$/)]);
      let cookie = cookieHeader(signInPage.headers);
      const signedIn = await submitForm(`${issuer}/oauth/sign-in`, { ...hiddenFields(signInPage.html, '/earshot/oauth/sign-in'), email: 'pi@example.com', password }, cookie);
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toMatch(new RegExp(`^${issuer}/oauth/authorize\\?`));
      cookie = cookieHeader(signedIn.headers, cookie);
      const consentPage = await browse(signedIn.location!, cookie);
      expect(consentPage.html).toContain('<form method="post" action="/earshot/oauth/authorize">');
      const answered = await submitForm(
        `${issuer}/oauth/authorize`,
        { ...hiddenFields(consentPage.html, '/earshot/oauth/authorize'), workspace: created.workspace.id, grant_scope: 'read', decision: 'allow' },
        cookie,
      );
      const code = new URL(answered.location!).searchParams.get('code')!;
      const tokens = await tokenRequest(issuer, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirectUri });
      expect(tokens).toMatchObject({ status: 200, body: { scope: 'read' } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('signs a person in with an e-mailed link that comes back to the same request', async () => {
    const created = await ownedWorkspace('ed@example.com');
    const client = (await registerClient(base)).body.client_id;
    const signInPage = await browse(authorizeUrl(base, { client_id: client, code_challenge: pkcePair().challenge, state: 'by mail' }));
    expect(signInPage.html).toContain('<h2>Or get a sign-in link by e-mail</h2>');
    const cookie = cookieHeader(signInPage.headers);

    const sent = await submitForm(`${base}/oauth/magic-link`, { ...hiddenFields(signInPage.html, '/oauth/magic-link'), email: 'ed@example.com' }, cookie);
    expect(sent.status).toBe(200);
    expect(sent.html).toContain('<h1>Check your e-mail</h1>');
    const mail = smtp.messages.find((message) => message.to === 'ed@example.com')!;
    const link = /(http:\/\/\S+\/oauth\/magic-link\?\S+)/.exec(mail.text!)![1];
    expect(link.startsWith(`${base}/oauth/magic-link?token=`)).toBe(true);

    const opened = await browse(link);
    expect(opened.status).toBe(303);
    const signedIn = cookieHeader(opened.headers);
    const consentPage = await browse(opened.location!, signedIn);
    expect((await consent(base, consentPage, signedIn, { workspaceId: created.workspace.id })).get('state')).toBe('by mail');
    const again = await browse(link);
    expect(again.status).toBe(401);
    expect(again.html).toContain('This link no longer works');
  });

  it('sends a denial back as access_denied, refuses a consent without the session CSRF token, and grants read access when chosen', async () => {
    const created = await ownedWorkspace('fi@example.com');
    const cookie = await signInCookie(base, 'fi@example.com', password);
    const client = (await registerClient(base)).body.client_id;
    const page = await browse(authorizeUrl(base, { client_id: client, code_challenge: pkcePair().challenge, state: 'd' }), cookie);

    const denied = await consent(base, page, cookie, { workspaceId: created.workspace.id, decision: 'deny' });
    expect(Object.fromEntries(denied)).toEqual({ error: 'access_denied', error_description: 'The user denied the request', state: 'd', iss: base });

    const forged = await submitForm(`${base}/oauth/authorize`, { ...hiddenFields(page.html, '/oauth/authorize'), csrf: 'x', workspace: created.workspace.id, grant_scope: 'write', decision: 'allow' }, cookie);
    expect(forged.status).toBe(403);
    const foreign = await submitForm(`${base}/oauth/authorize`, { ...hiddenFields(page.html, '/oauth/authorize'), workspace: 'org_someone_else', grant_scope: 'write', decision: 'allow' }, cookie);
    expect(foreign.status).toBe(400);
    expect(foreign.html).toContain('<p class="error" role="alert">Choose one of your workspaces and one kind of access.</p>');

    const readOnly = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id, scope: 'read', clientId: client });
    expect(readOnly.scope).toBe('read');
    // A client asking for read only is offered nothing more.
    const readPage = await browse(authorizeUrl(base, { client_id: client, code_challenge: pkcePair().challenge, scope: 'read' }), cookie);
    expect(readPage.html).toContain('value="read" checked');
    expect(readPage.html).not.toContain('value="write"');
  });
});

describe('OAuth tokens on the API', () => {
  it('refuses changes to a read token with 403 read_only_key, on REST and GraphQL', async () => {
    const created = await ownedWorkspace('gu@example.com');
    const cookie = await signInCookie(base, 'gu@example.com', password);
    const tokens = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id, scope: 'read' });
    expect((await earshot.rest('GET', '/v1/keywords', { key: tokens.access_token })).status).toBe(200);
    const refused = await earshot.rest('POST', '/v1/keywords', { key: tokens.access_token, body: { term: 'nope' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'read_only_key', message: 'This access token was granted read access only; use a write credential to change anything' });
    const mutation = await earshot.graphql('mutation { createKeyword(input: { term: "nope" }) { id } }', {}, tokens.access_token);
    expect(mutation.body.errors[0].extensions.code).toBe('read_only_key');
  });

  it('lets an access token lapse after its configured lifetime, while its refresh token renews it', async () => {
    const created = await ownedWorkspace('ha@example.com');
    const cookie = await signInCookie(base, 'ha@example.com', password);
    const tokens = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id });
    clock.advance((accessTokenSeconds - 1) * 1000);
    expect((await earshot.rest('GET', '/v1/whoami', { key: tokens.access_token })).status).toBe(200);
    clock.advance(1000);
    const expired = await earshot.rest('GET', '/v1/whoami', { key: tokens.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('unauthorized');
    const renewed = await tokenRequest(base, { grant_type: 'refresh_token', client_id: tokens.clientId, refresh_token: tokens.refresh_token });
    expect((await earshot.rest('GET', '/v1/whoami', { key: renewed.body.access_token })).status).toBe(200);
  });

  it('acts on exactly the chosen workspace: a token for A sees nothing of B, though its user belongs to both', async () => {
    const a = await ownedWorkspace('io@example.com', 'A');
    const b = await provisionWorkspace(earshot.sql, 'B');
    await addMember(earshot.sql, { workspaceId: b.workspace.id, userId: a.owner!.id, role: 'owner' });
    const inB = await earshot.rest('POST', '/v1/keywords', { key: b.apiKey, body: { term: 'only in b' } });
    await earshot.rest('POST', '/v1/keywords', { key: a.apiKey, body: { term: 'only in a' } });
    const cookie = await signInCookie(base, 'io@example.com', password);
    const tokens = await authorizedTokens(base, { cookie, workspaceId: a.workspace.id });

    expect((await earshot.rest('GET', '/v1/whoami', { key: tokens.access_token })).body.workspace).toEqual(a.workspace);
    expect((await earshot.rest('GET', '/v1/keywords', { key: tokens.access_token })).body.data.map((keyword: { term: string }) => keyword.term)).toEqual(['only in a']);
    const foreign = await earshot.rest('GET', `/v1/keywords/${inB.body.id}`, { key: tokens.access_token });
    expect(foreign.status).toBe(404);
    expect((await earshot.rest('PATCH', `/v1/keywords/${inB.body.id}`, { key: tokens.access_token, body: { muted: true } })).status).toBe(404);
    expect((await earshot.rest('GET', `/v1/keywords/${inB.body.id}`, { key: b.apiKey })).body.muted).toBe(false);
  });

  it("accepts an owner's token for member changes where a session is accepted, refuses a plain member's, and stops a removed member's token", async () => {
    const created = await ownedWorkspace('jo@example.com');
    const member = await findOrCreateUser(earshot.sql, { email: 'jo-member@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
    await setUserPassword(earshot.sql, 'jo-member@example.com', password);
    const ownerToken = (await authorizedTokens(base, { cookie: await signInCookie(base, 'jo@example.com', password), workspaceId: created.workspace.id })).access_token;
    const memberToken = (await authorizedTokens(base, { cookie: await signInCookie(base, 'jo-member@example.com', password), workspaceId: created.workspace.id })).access_token;

    const byMember = await earshot.rest('DELETE', `/v1/members/${created.owner!.id}`, { key: memberToken });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('forbidden');
    expect((await earshot.rest('PATCH', `/v1/members/${member.id}`, { key: ownerToken, body: { role: 'admin' } })).body.role).toBe('admin');
    expect((await earshot.rest('DELETE', `/v1/members/${member.id}`, { key: ownerToken })).status).toBe(204);
    expect((await earshot.rest('GET', '/v1/whoami', { key: memberToken })).status).toBe(401);
  });
});

describe('connected apps', () => {
  it('lists the apps connected to a workspace and disconnects them: the user who connected one, or an owner or admin', async () => {
    const created = await ownedWorkspace('ka@example.com');
    const member = await findOrCreateUser(earshot.sql, { email: 'ka-member@example.com' });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
    await setUserPassword(earshot.sql, 'ka-member@example.com', password);
    const ownerCookie = await signInCookie(base, 'ka@example.com', password);
    const memberCookie = await signInCookie(base, 'ka-member@example.com', password);
    const ownerApp = await authorizedTokens(base, { cookie: ownerCookie, workspaceId: created.workspace.id, scope: 'read' });
    const memberApp = await authorizedTokens(base, { cookie: memberCookie, workspaceId: created.workspace.id });

    const listed = await earshot.rest('GET', '/v1/connected-apps', { key: created.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^oag_/),
          clientId: ownerApp.clientId,
          clientName: 'Test assistant',
          clientUri: null,
          user: { id: created.owner!.id, name: 'ka', email: 'ka@example.com' },
          scope: 'read',
          connectedAt: expect.any(String),
          lastUsedAt: expect.any(String),
        },
        expect.objectContaining({ clientId: memberApp.clientId, user: { id: member.id, name: 'ka-member', email: 'ka-member@example.com' }, scope: 'write' }),
      ],
    });
    const [ownerGrant, memberGrant] = listed.body.data.map((app: { id: string }) => app.id);
    const graphql = await earshot.graphql('{ connectedApps { id user { email } } }', {}, created.apiKey);
    expect(graphql.body.data.connectedApps).toEqual([{ id: ownerGrant, user: { email: 'ka@example.com' } }, { id: memberGrant, user: { email: 'ka-member@example.com' } }]);

    const byKey = await earshot.rest('DELETE', `/v1/connected-apps/${memberGrant}`, { key: created.apiKey });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error).toMatchObject({ code: 'forbidden', message: 'Disconnecting an app needs a signed-in user, not an API key' });
    const byMember = await earshot.rest('DELETE', `/v1/connected-apps/${ownerGrant}`, { key: memberApp.access_token });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.message).toBe("Only an owner or an admin may disconnect another member's app");
    expect((await earshot.rest('DELETE', '/v1/connected-apps/oag_nothing', { key: memberApp.access_token })).status).toBe(404);

    const csrf = /earshot_csrf=([^;]+)/.exec(ownerCookie)![1];
    const byOwner = await earshot.rest('DELETE', `/v1/connected-apps/${memberGrant}`, { headers: { cookie: ownerCookie, 'x-csrf-token': csrf } });
    expect(byOwner.status).toBe(204);
    expect((await earshot.rest('GET', '/v1/whoami', { key: memberApp.access_token })).status).toBe(401);
    expect(await tokenRequest(base, { grant_type: 'refresh_token', client_id: memberApp.clientId, refresh_token: memberApp.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await earshot.rest('GET', '/v1/connected-apps', { key: created.apiKey })).body.data.map((app: { id: string }) => app.id)).toEqual([ownerGrant]);
  });
});
