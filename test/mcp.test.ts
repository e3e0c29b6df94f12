import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { extractWWWAuthenticateParams, type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentionFilterParameters } from '../subgraphs/mentions/mention-filter.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { startTestEarshotOnPort, type TestEarshot } from './harness.ts';
import { authorizedTokens, browse, consent, redirectUri, signInCookie } from './oauth-flow.ts';
import { account, classify, postBy, seedWorkspace, storePosts } from './people-seed.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore } from './scored-mentions.ts';

const rateLimitPerMinute = 40;
let earshot: TestEarshot;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  const started = await startTestEarshotOnPort((port) => ({ rateLimitPerMinute, env: { EARSHOT_PUBLIC_URL: `http://127.0.0.1:${port}` } }));
  earshot = started.earshot;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await earshot?.stop();
});

const readTools = [
  'whoami',
  'search_mentions',
  'get_mention',
  'list_mention_comments',
  'list_keywords',
  'get_keyword',
  'get_keyword_health',
  'get_keyword_suggestions',
  'list_alert_rules',
  'list_channels',
  'list_channel_deliveries',
  'get_wallet',
  'get_usage',
  'get_usage_breakdown',
  'get_mention_analytics',
  'list_people',
  'get_person',
  'list_person_activities',
];
const writeTools = ['triage_mention', 'set_mention_verdict', 'create_keyword', 'update_keyword', 'test_alert_rule', 'test_channel', 'update_person', 'log_person_activity'];

/** The SDK's own client over Streamable HTTP, with a bearer credential. */
async function connect(credential: string): Promise<Client> {
  const client = new Client({ name: 'earshot-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
  clients.push(client);
  return client;
}

/** The arguments of a tool's JSON Schema, nested ones and those of list items included, that have no description. */
function undescribedArguments(schema: any, path: string): string[] {
  const properties = Object.entries<any>(schema?.properties ?? {}).flatMap(([name, property]) => [
    ...(property.description ? [] : [`${path}.${name}`]),
    ...undescribedArguments(property, `${path}.${name}`),
  ]);
  const branches = [schema?.items, ...(schema?.anyOf ?? [])].filter(Boolean).flatMap((branch) => undescribedArguments(branch, path));
  return [...properties, ...branches];
}

/** A tool's answer: its JSON, or its error text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
  return result.isError ? { error: result.content[0].text } : { data: JSON.parse(result.content[0].text), structured: result.structuredContent };
}

const password = 'correct horse battery';

/** An MCP client's OAuth side as the SDK asks for it, keeping everything in memory; the browser's part is the test's. */
function memoryAuthProvider() {
  const stored: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; authorizationUrl?: URL } = {};
  const provider: OAuthClientProvider = {
    redirectUrl: redirectUri,
    clientMetadata: { client_name: 'SDK test client', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    clientInformation: () => stored.client,
    saveClientInformation: (client) => void (stored.client = client),
    tokens: () => stored.tokens,
    saveTokens: (tokens) => void (stored.tokens = tokens),
    redirectToAuthorization: (url) => void (stored.authorizationUrl = url),
    saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier!,
  };
  return { provider, stored };
}

describe('the MCP tool server at /mcp', () => {
  it('answers 401 with the challenge that leads a client to the authorization server', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;

    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.statusText).toBe('Unauthorized');
    // MCP authorization 2025-11-25: the challenge names the scopes to ask for (RFC 6750 3), as the SDK client reads them.
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer scope="read write", resource_metadata="${metadata}"`);
    expect(extractWWWAuthenticateParams(missing)).toEqual({ resourceMetadataUrl: new URL(metadata), scope: 'read write' });
    expect(await missing.json()).toEqual({
      error: { code: 'unauthorized', message: 'Send an API key or an OAuth access token as "Authorization: Bearer …"', requestId: missing.headers.get('x-request-id') },
    });
    const invalid = await post({ authorization: 'Bearer oat_revoked_or_made_up' });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The API key or access token is invalid, expired or revoked", scope="read write", resource_metadata="${metadata}"`,
    );
    expect((await invalid.json()).error.code).toBe('unauthorized');
    const { apiKey } = await earshot.createWorkspace();
    const listed = await post({ authorization: `Bearer ${apiKey}` });
    expect({ status: listed.status, statusText: listed.statusText }).toEqual({ status: 200, statusText: 'OK' });

    // What the challenge names leads to the authorization server.
    const resource = await (await fetch(metadata)).json();
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    expect((await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()).issuer).toBe(base);
  });

  it('refuses a call from a page of another origin with 403 (the MCP transport’s DNS-rebinding rule), and takes its own origin’s', async () => {
    const { apiKey } = await earshot.createWorkspace('Origins');
    const post = (origin: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    expect(await post('https://rebound.example')).toEqual({
      status: 403,
      body: { jsonrpc: '2.0', error: { code: -32000, message: "Forbidden: Origin https://rebound.example is not Earshot's own" }, id: null },
    });
    expect(await post(base)).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } } });
    const port = new URL(base).port;
    expect(await post(`http://localhost:${port}`)).toMatchObject({ status: 200, body: { result: { tools: expect.any(Array) } } });
    expect((await post(`http://localhost:${Number(port) + 1}`)).status).toBe(403);
    expect((await post(`http://localhost.rebound.example:${port}`)).status).toBe(403);
  });

  it('lists every tool to a write API key, each with a description and a JSON-schema input, and runs them on real data', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Tools');
    const client = await connect(apiKey);
    expect(client.getInstructions()).toContain('search_mentions');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...readTools, ...writeTools].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(30);
      expect(tool.inputSchema.type).toBe('object');
      // A model fills the arguments from these words alone, the nested ones (a keyword's matching rules) as much.
      expect(undescribedArguments(tool.inputSchema, tool.name)).toEqual([]);
      expect(tool.annotations).toMatchObject({ readOnlyHint: readTools.includes(tool.name), destructiveHint: false });
    }
    const search = tools.find((tool) => tool.name === 'search_mentions')!;
    // Each optional argument also takes null, as if left out (see the test of nulls below).
    expect(search.inputSchema).toMatchObject({
      additionalProperties: false,
      properties: {
        keywordIds: { anyOf: [{ type: 'array', items: { type: 'string', minLength: 1 } }, { type: 'null' }] },
        relevant: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
        limit: { anyOf: [{ type: 'integer', minimum: 1, maximum: 100 }, { type: 'null' }] },
      },
    });

    const keyword = await call(client, 'create_keyword', { term: 'rust', context: rustContext, platforms: ['reddit'] });
    expect(keyword.data).toMatchObject({ term: 'rust', context: rustContext, platforms: ['reddit'] });
    const mentionIds = await storeAndScore(earshot, workspace.id, relevantRustPosts.map((text) => ({ post: redditPost(text), keywordIds: [keyword.data.id] })));

    const found = await call(client, 'search_mentions', { keywordIds: [keyword.data.id] });
    const rest = await earshot.rest('GET', `/v1/mentions?keywordIds=${keyword.data.id}&limit=20`, { key: apiKey });
    expect(found.data).toEqual(rest.body);
    expect(found.structured).toEqual(rest.body);
    expect(found.data.data.map((mention: { id: string }) => mention.id).sort()).toEqual([...mentionIds].sort());
    // Every filter of the list is an argument, typed as JSON.
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual([...Object.keys(mentionFilterParameters), 'sort', 'limit', 'cursor'].sort());
    const narrowed = await call(client, 'search_mentions', {
      keywordIds: [keyword.data.id],
      notPlatforms: ['x', 'bluesky'],
      q: 'rust',
      minRelevance: 0,
      since: '2020-01-01T00:00:00Z',
      isReply: false,
      sort: 'priority',
    });
    const restNarrowed = await earshot.rest(
      'GET',
      `/v1/mentions?keywordIds=${keyword.data.id}&notPlatforms=x,bluesky&q=rust&minRelevance=0&since=2020-01-01T00:00:00Z&isReply=false&sort=priority&limit=20`,
      { key: apiKey },
    );
    expect(restNarrowed.status).toBe(200);
    expect(narrowed.data).toEqual(restNarrowed.body);
    expect(narrowed.data.data.length).toBeGreaterThan(0);
    expect(await call(client, 'search_mentions', { sentiments: ['happy'] })).toEqual({ error: expect.stringMatching(/^validation_error: /) });

    const [first] = mentionIds;
    expect((await call(client, 'get_mention', { id: first })).data).toEqual((await earshot.rest('GET', `/v1/mentions/${first}`, { key: apiKey })).body);
    expect((await call(client, 'triage_mention', { id: first, status: 'done' })).data.status).toBe('done');
    const verdict = await call(client, 'set_mention_verdict', { id: first, relevant: false });
    expect(verdict.data).toMatchObject({ relevant: false, classification: { feedback: { relevant: false } } });
    expect((await earshot.rest('GET', `/v1/mentions/${first}`, { key: apiKey })).body).toMatchObject({ status: 'done', relevant: false });

    const muted = await call(client, 'update_keyword', { id: keyword.data.id, muted: true, matching: { excludedTerms: ['game'] } });
    expect(muted.data).toMatchObject({ muted: true, matching: { excludedTerms: ['game'] } });
    expect((await call(client, 'list_keywords')).data.data.map((each: { id: string }) => each.id)).toEqual([keyword.data.id]);
    expect((await call(client, 'get_keyword_health', { id: keyword.data.id, days: 7 })).data).toMatchObject({ keyword: { id: keyword.data.id }, window: { days: 7 }, status: 'paused' });
    expect((await call(client, 'get_keyword_suggestions', { id: keyword.data.id })).data).toEqual({ data: expect.any(Array) });
    expect((await call(client, 'get_wallet')).data).toEqual((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body);
    expect((await call(client, 'get_usage')).data).toEqual((await earshot.rest('GET', '/v1/usage', { key: apiKey })).body);
    expect((await call(client, 'get_usage_breakdown')).data.keywords).toEqual([expect.objectContaining({ keywordId: keyword.data.id, term: 'rust' })]);
    expect((await call(client, 'list_channels')).data).toEqual({ data: [] });
    expect((await call(client, 'list_alert_rules')).data).toEqual({ data: [] });
    expect((await call(client, 'whoami')).data).toMatchObject({ workspace, auth: { kind: 'api_key', scope: 'write' }, user: null });
  });

  it('takes null for an optional argument as the argument left out, as many clients send it, and lists every optional argument as taking null', async () => {
    const { apiKey } = await earshot.createWorkspace('Nulls');
    const client = await connect(apiKey);
    // Every optional argument, nested ones and those of list items included, admits null; a required one does not.
    const admitsNull = (schema: any): boolean =>
      schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')) || (schema.anyOf ?? []).some(admitsNull);
    const refusingNull = (schema: any, path: string): string[] => [
      ...Object.entries<any>(schema?.properties ?? {}).flatMap(([name, property]) => [
        ...((schema.required ?? []).includes(name) || admitsNull(property) ? [] : [`${path}.${name}`]),
        ...refusingNull(property, `${path}.${name}`),
      ]),
      ...[schema?.items, ...(schema?.anyOf ?? [])].filter(Boolean).flatMap((branch) => refusingNull(branch, path)),
    ];
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(refusingNull(tool.inputSchema, tool.name)).toEqual([]);
      for (const name of tool.inputSchema.required ?? []) expect(admitsNull(tool.inputSchema.properties![name])).toBe(false);
    }
    const createKeyword = tools.find((tool) => tool.name === 'create_keyword')!.inputSchema.properties!;
    expect(createKeyword.groupId).toEqual({ description: expect.stringMatching(/^The group/), anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] });

    const created = await call(client, 'create_keyword', {
      term: 'nullable',
      kind: null,
      muted: null,
      groupId: null,
      reviewSources: null,
      feeds: null,
      context: 'A database library',
      matching: { requiredMode: null, caseSensitive: null, subreddits: { only: ['rust'] }, repositories: null },
      comments: { enabled: true, maxPerPost: null },
    });
    expect(created.data).toMatchObject({
      term: 'nullable',
      kind: 'brand',
      muted: false,
      context: 'A database library',
      matching: { requiredMode: 'any', caseSensitive: false, subreddits: { only: ['rust'], excluded: [] } },
      comments: { enabled: true, maxPerPost: 20 },
      reviewSources: [],
      feeds: [],
    });
    const id = created.data.id;
    // A null the argument itself takes keeps its meaning: context null clears it.
    const patched = await call(client, 'update_keyword', { id, term: null, kind: null, muted: null, context: null, comments: { enabled: null, maxPerPost: 5 } });
    expect(patched.data).toMatchObject({ id, term: 'nullable', kind: 'brand', muted: false, context: null, comments: { enabled: true, maxPerPost: 5 } });

    const withNulls = await call(client, 'search_mentions', { keywordIds: null, relevant: null, limit: null, cursor: null, sort: null, q: null });
    expect(withNulls.data).toEqual((await call(client, 'search_mentions')).data);
    expect((await call(client, 'list_keywords', { limit: null, cursor: null, groupId: null })).data.data.map((each: { id: string }) => each.id)).toEqual([id]);
    expect((await call(client, 'get_keyword_health', { id, days: null })).data.window.days).toBe(30);
    expect((await call(client, 'get_mention_analytics', { by: 'sentiment', bucket: null, since: null, until: null, keywordIds: null, platforms: null, relevant: null })).data).toMatchObject({
      total: 0,
    });
    // A required argument is still required.
    expect(await call(client, 'get_keyword', { id: null })).toEqual({ error: 'validation_error: id: expected a string, got null' });
    expect(await call(client, 'create_keyword', { term: null })).toEqual({ error: 'validation_error: term: expected a string, got null' });
  });

  it('lists and changes people, logs outreach and counts mentions, answering what REST answers', async () => {
    const w = await seedWorkspace(earshot, 'mcp-people');
    const [first, second] = await storePosts(earshot, w, [
      postBy(account('github', 'ada'), 'Acme builds fast', new Date('2026-03-02T10:00:00Z')),
      postBy(account('x', 'grace'), 'Acme is slow today', new Date('2026-03-03T10:00:00Z')),
    ]);
    await classify(earshot, first, { relevance: 90, sentiment: 'positive' });
    await classify(earshot, second, { relevance: 80, sentiment: 'negative' });
    const client = await connect(w.key);
    const rest = async (method: string, path: string, body?: unknown) => (await earshot.rest(method, path, { key: w.key, body })).body;

    const people = await call(client, 'list_people', { q: 'ada' });
    expect(people.data).toEqual(await rest('GET', '/v1/people?q=ada'));
    const [ada] = people.data.data;
    expect(ada.accounts.map((each: { handle: string }) => each.handle)).toEqual(['ada']);
    expect((await call(client, 'list_people', { stages: ['not_contacted'], limit: 1 })).data).toEqual(await rest('GET', '/v1/people?stages=not_contacted&limit=1'));
    expect((await call(client, 'get_person', { id: ada.id })).data).toEqual(await rest('GET', `/v1/people/${ada.id}`));

    const owned = await call(client, 'update_person', { id: ada.id, ownerId: w.memberId, stage: 'replied' });
    expect(owned.data).toMatchObject({ id: ada.id, outreach: { owner: w.memberId, stage: 'replied' } });
    expect(await call(client, 'update_person', { id: ada.id, ownerId: 'usr_stranger' })).toEqual({ error: expect.stringMatching(/^invalid_member: /) });

    const grace = (await call(client, 'list_people', { q: 'grace' })).data.data[0];
    const logged = await call(client, 'log_person_activity', { id: grace.id, channel: 'email', note: 'Asked about the slowness' });
    expect(logged.data).toMatchObject({ personId: grace.id, channel: 'email', note: 'Asked about the slowness', madeBy: { userId: null, apiKeyId: expect.any(String) } });
    // An API key claims nobody, and the first contact moves the person to contacted (spec 3.5.2).
    expect((await call(client, 'get_person', { id: grace.id })).data.outreach).toMatchObject({ owner: null, stage: 'contacted' });
    expect((await call(client, 'list_person_activities', { id: grace.id })).data).toEqual(await rest('GET', `/v1/people/${grace.id}/activities`));
    expect((await call(client, 'list_person_activities', { id: grace.id })).data.data.map((each: { id: string }) => each.id)).toEqual([logged.data.id]);
    expect(await call(client, 'log_person_activity', { id: grace.id, channel: 'pigeon' })).toEqual({ error: expect.stringMatching(/^validation_error: channel/) });
    expect(await call(client, 'get_person', { id: 'per_nobody' })).toEqual({ error: expect.stringMatching(/^not_found: /) });

    const counted = await call(client, 'get_mention_analytics', { by: 'sentiment', bucket: 'week', since: '2026-03-02T00:00:00Z', until: '2026-03-08T23:59:59Z', relevant: 'all' });
    expect(counted.data).toEqual(await rest('GET', '/v1/analytics?by=sentiment&bucket=week&since=2026-03-02T00:00:00Z&until=2026-03-08T23:59:59Z&relevant=all'));
    expect(counted.data).toMatchObject({ total: 2, totals: [{ start: '2026-03-02T00:00:00.000Z', count: 2 }] });
    expect(counted.data.series.map((series: { key: string; total: number }) => [series.key, series.total])).toEqual([['negative', 1], ['positive', 1]]);
    const byPlatform = await call(client, 'get_mention_analytics', { by: 'platform', since: '1772409600000', until: '2026-03-03T23:59:59Z', platforms: ['x'] });
    expect(byPlatform.data.series).toEqual([{ key: 'x', keyword: null, total: 1, points: [{ start: '2026-03-02T00:00:00.000Z', count: 0 }, { start: '2026-03-03T00:00:00.000Z', count: 1 }] }]);
    expect(await call(client, 'get_mention_analytics', { by: 'mood' })).toEqual({ error: expect.stringMatching(/^validation_error: by/) });
    expect(await call(client, 'get_mention_analytics', { by: 'sentiment', bucket: 'hour', since: '2020-01-01T00:00:00Z' })).toEqual({ error: expect.stringMatching(/^validation_error: bucket: /) });
  });

  it('shows a read credential the read tools only, and refuses it the others with read_only_key', async () => {
    const { apiKey } = await earshot.createWorkspace('Readers');
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: apiKey, body: { name: 'Assistant', scope: 'read' } })).body.key;
    const client = await connect(readKey);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...readTools].sort());
    expect(await call(client, 'create_keyword', { term: 'sneaky' })).toEqual({ error: 'read_only_key: create_keyword changes the workspace; this credential may only read' });
    expect((await earshot.rest('GET', '/v1/keywords', { key: apiKey })).body.data).toEqual([]);
    expect((await call(client, 'list_keywords')).data).toEqual({ data: [], nextCursor: null });
  });

  it("answers a tool's failure as a tool error starting with the spec's code, and the session goes on", async () => {
    const { apiKey } = await earshot.createWorkspace('Errors');
    const client = await connect(apiKey);
    expect(await call(client, 'get_mention', { id: 'mm_nothing' })).toEqual({ error: 'not_found: Mention not found' });
    expect(await call(client, 'create_keyword', { term: 'x' })).toEqual({ error: expect.stringMatching(/^validation_error: term: /) });
    expect(await call(client, 'search_mentions', { limit: 500 })).toEqual({ error: expect.stringMatching(/^validation_error: limit: /) });
    expect(await call(client, 'search_mentions', { cursor: 'not-a-cursor' })).toEqual({ error: expect.stringMatching(/^invalid_cursor: /) });
    expect(await call(client, 'test_channel', { id: 'dest_nothing' })).toEqual({ error: expect.stringMatching(/^not_found: /) });
    expect(await call(client, 'list_channel_deliveries', { id: 'dest_nothing', status: 'failed' })).toEqual({ error: 'not_found: Channel not found' });
    expect(await call(client, 'list_channel_deliveries', { id: 'dest_nothing', status: 'sent' })).toEqual({ error: expect.stringMatching(/^validation_error: status: /) });
    // Lone surrogates cannot be stored or percent-encoded as UTF-8: refused as a NUL character is, not a failure of ours.
    expect(await call(client, 'get_keyword_health', { id: '\udc00\ud800', days: 87 })).toEqual({
      error: 'validation_error: id: must not contain lone surrogates (unpaired halves of UTF-16 pairs)',
    });
    // MCP spec (tools, error handling): an unknown tool is a protocol error, JSON-RPC invalid params, not a tool's result.
    // The SDK's client puts "MCP error -32602: " before the message it receives: once, the server's message not starting so too.
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: no_such_tool' });
    expect((await call(client, 'create_keyword', { term: 'earshot' })).data.term).toBe('earshot');
    expect(await call(client, 'create_keyword', { term: 'earshot' })).toEqual({ error: expect.stringMatching(/^duplicate_keyword: /) });
  });

  it("refuses a cap out of bounds as REST does, saying what the bound is rather than that the cap is missing", async () => {
    const { apiKey } = await earshot.createWorkspace('Caps');
    const client = await connect(apiKey);
    const created = await call(client, 'create_keyword', { term: 'capped' });
    for (const [cap, message] of [
      [{ mentions: 0 }, 'cap.mentions: must be 1 to 1,000,000'],
      [{ mentions: 1_000_001 }, 'cap.mentions: must be 1 to 1,000,000'],
      [{ mentions: 2.5 }, 'cap.mentions: must be a whole number'],
      [{ mentions: '5' }, 'cap.mentions: expected a number, got a string'],
      [{ per: 'week' }, 'cap.mentions: is required: a whole number 1 to 1,000,000'],
    ] as const) {
      const rest = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'capped too', cap } });
      expect([rest.status, rest.body.error]).toEqual([400, { code: 'validation_error', field: 'cap.mentions', message, requestId: expect.any(String) }]);
      expect(await call(client, 'create_keyword', { term: 'capped too', cap })).toEqual({ error: `validation_error: ${message}` });
      expect(await call(client, 'update_keyword', { id: created.data.id, cap })).toEqual({ error: `validation_error: ${message}` });
    }
  });

  // Found by the MCP fuzz run: the SDK's protocol layer answered a malformed call as an internal error.
  it('answers tools/call params of the wrong shape as invalid params (-32602), not as an internal error, and a body over EARSHOT_MAX_BODY_BYTES with 413', async () => {
    const { apiKey } = await earshot.createWorkspace('Malformed calls');
    const send = (params: unknown) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    // Each problem at its path, not zod's JSON dump of them; and no "MCP error -32602: " before it, which the SDK's client adds again.
    const wrongShapes = [
      [{ name: 'whoami', arguments: ['a'] }, 'Invalid tools/call request: params.arguments: Invalid input: expected record, received array'],
      [{ name: 7 }, 'Invalid tools/call request: params.name: Invalid input: expected string, received number'],
    ] as const;
    for (const [params, message] of wrongShapes) {
      expect(await send(params)).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 3, error: { code: -32602, message } } });
    }
    // Found by the MCP fuzz run: the SDK's own initialize, and a tools/list cursor of the wrong type, came back as -32603 too.
    for (const [method, params] of [['initialize', {}], ['tools/list', { cursor: 5 }]] as const) {
      const answer = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method, params }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
      expect(answer).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 4, error: { code: -32602, message: expect.stringMatching(new RegExp(`^Invalid ${method} request: params\\.\\w+: `)) } } });
    }
    // Params that are not an object at all make no MCP request: JSON-RPC 2.0 calls JSON that is no request object -32600, -32700 being JSON that does not parse.
    const invalidRequest = { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } } };
    for (const params of [['whoami'], null]) expect(await send(params)).toEqual(invalidRequest);
    const post = (body: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    for (const body of ['{"hello":1}', '42', '"ping"', '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2}]', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
      expect(await post(body)).toEqual(invalidRequest);
    }
    expect(await post('{"jsonrpc":')).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } } });
    expect(await send({ name: 'whoami', arguments: { padding: 'x'.repeat(1_048_576) } })).toEqual({
      status: 413,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 1048576 bytes' } },
    });
  });

  it('answers a tools/list cursor it never gave as invalid params (MCP pagination: an invalid cursor is -32602)', async () => {
    const client = await connect((await earshot.createWorkspace('Cursors')).apiKey);
    expect((await client.listTools()).nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: 'page-2' })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: Invalid cursor: the tool list is one page and gives no cursor' });
  });

  // Found by the fuzz run: checking the arguments for NUL characters walked them by recursion and overflowed the stack, answered -32603.
  it('answers params nested 20,000 levels deep as invalid params (-32602)', async () => {
    const { apiKey } = await earshot.createWorkspace('Deep calls');
    const nested = `${'{"a":'.repeat(20_000)}"x"${'}'.repeat(20_000)}`;
    for (const [method, params] of [
      ['tools/call', `{"name":"create_keyword","arguments":{"term":${nested}}}`],
      ['initialize', nested],
    ]) {
      const answer = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc":"2.0","id":5,"method":"${method}","params":${params}}`,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
      expect(answer).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 5, error: { code: -32602, message: `Invalid ${method} request: the params are nested deeper than 32 levels` } } });
    }
  });

  it('takes an OAuth access token that the SDK client gets by itself: 401, discovery, registration, PKCE, consent, token', async () => {
    const created = await provisionWorkspace(earshot.sql, 'OAuth workspace', { ownerEmail: 'mo@example.com' });
    await setUserPassword(earshot.sql, 'mo@example.com', password);
    const cookie = await signInCookie(base, 'mo@example.com', password);

    const { provider, stored } = memoryAuthProvider();
    const mcpUrl = new URL(`${base}/mcp`);
    const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'earshot-test', version: '1.0.0' }).connect(firstTransport)).rejects.toThrow(UnauthorizedError);
    expect(stored.client).toMatchObject({ client_name: 'SDK test client', token_endpoint_auth_method: 'none' });
    expect(stored.authorizationUrl!.origin + stored.authorizationUrl!.pathname).toBe(`${base}/oauth/authorize`);
    expect(stored.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(stored.authorizationUrl!.searchParams.get('resource')).toBe(`${base}/mcp`);

    // The user's browser: signed in, it consents to the write scope on the workspace.
    const redirect = await consent(base, await browse(stored.authorizationUrl!.href, cookie), cookie, { workspaceId: created.workspace.id });
    await firstTransport.finishAuth(redirect.get('code')!);
    expect(stored.tokens).toMatchObject({ token_type: 'Bearer', scope: 'read write' });

    const client = new Client({ name: 'earshot-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...readTools, ...writeTools].sort());
    expect((await call(client, 'whoami')).data).toEqual({
      workspace: created.workspace,
      auth: { kind: 'oauth', scope: 'write', apiKeyId: null, expiresAt: expect.any(String) },
      user: { id: created.owner!.id, name: 'mo', email: 'mo@example.com' },
    });
    expect((await call(client, 'create_keyword', { term: 'made by an assistant' })).data.term).toBe('made by an assistant');
    expect((await earshot.rest('GET', '/v1/keywords', { key: created.apiKey })).body.data.map((each: { term: string }) => each.term)).toEqual(['made by an assistant']);

    // A read token from the same flow sees the read tools only.
    const readToken = await authorizedTokens(base, { cookie, workspaceId: created.workspace.id, scope: 'read' });
    const reader = await connect(readToken.access_token);
    expect((await reader.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...readTools].sort());
  });

  it('counts REST and MCP calls against the one budget of the workspace', async () => {
    // Budgets are per calendar minute: wait out a minute about to turn.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const { apiKey } = await earshot.createWorkspace('Budget');
    const client = await connect(apiKey);
    for (let i = 0; i < rateLimitPerMinute / 2; i++) {
      expect((await earshot.rest('GET', '/v1/whoami', { key: apiKey })).status).toBe(200);
      expect((await call(client, 'whoami')).data.auth.kind).toBe('api_key');
    }
    const rest = await earshot.rest('GET', '/v1/whoami', { key: apiKey });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await call(client, 'whoami')).toEqual({ error: expect.stringMatching(/^rate_limited: Rate limit of 40 requests a minute reached; retry in \d+ s$/) });
  });

  it('answers a tool call over HTTP with the X-RateLimit-* headers of the budget it spent (spec 8)', async () => {
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const { apiKey } = await earshot.createWorkspace('Budget headers');
    const post = (body: object) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      });
    const before = (await earshot.rest('GET', '/v1/whoami', { key: apiKey })).headers;
    const called = await post({ method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    expect(called.status).toBe(200);
    expect(called.headers.get('x-ratelimit-limit')).toBe(String(rateLimitPerMinute));
    expect(called.headers.get('x-ratelimit-remaining')).toBe(String(Number(before.get('x-ratelimit-remaining')) - 1));
    expect(Math.abs(Number(called.headers.get('x-ratelimit-reset')) - Number(before.get('x-ratelimit-reset')))).toBeLessThanOrEqual(5);
    // Listing the tools runs no route and spends nothing.
    expect((await post({ method: 'tools/list' })).headers.get('x-ratelimit-remaining')).toBeNull();
  });
});

describe('the MCP tool server without EARSHOT_PUBLIC_URL', () => {
  let local: TestEarshot;
  let port: number;
  beforeAll(async () => {
    // The contract's default public address, http://localhost:PORT, is the issuer; clients may be given the server as 127.0.0.1.
    ({ earshot: local, port } = await startTestEarshotOnPort((free) => ({ env: { PORT: String(free) } })));
  });
  afterAll(async () => {
    await local?.stop();
  });

  it('lets the SDK client sign in at http://127.0.0.1:PORT/mcp: the resource is named as the client reached it (RFC 9728 3.3), the issuer stays localhost', async () => {
    const issuer = `http://localhost:${port}`;
    const reached = `http://127.0.0.1:${port}`;
    const created = await provisionWorkspace(local.sql, 'Loopback workspace', { ownerEmail: 'lo@example.com' });
    await setUserPassword(local.sql, 'lo@example.com', password);
    const cookie = await signInCookie(reached, 'lo@example.com', password);

    const challenge = (at: string) => fetch(`${at}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((answer) => answer.headers.get('www-authenticate'));
    expect(await challenge(reached)).toBe(`Bearer scope="read write", resource_metadata="${reached}/.well-known/oauth-protected-resource/mcp"`);
    expect(await challenge(issuer)).toBe(`Bearer scope="read write", resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`);
    expect(await (await fetch(`${reached}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({ resource: `${reached}/mcp`, authorization_servers: [issuer] });
    expect(await (await fetch(`${reached}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: reached, authorization_servers: [issuer] });

    const { provider, stored } = memoryAuthProvider();
    const mcpUrl = new URL(`${reached}/mcp`);
    const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'earshot-test', version: '1.0.0' }).connect(firstTransport)).rejects.toThrow(UnauthorizedError);
    expect(stored.authorizationUrl!.origin).toBe(issuer);
    expect(stored.authorizationUrl!.searchParams.get('resource')).toBe(`${reached}/mcp`);
    const redirect = await consent(reached, await browse(stored.authorizationUrl!.href, cookie), cookie, { workspaceId: created.workspace.id });
    await firstTransport.finishAuth(redirect.get('code')!);

    const client = new Client({ name: 'earshot-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    clients.push(client);
    expect((await call(client, 'whoami')).data).toMatchObject({ workspace: created.workspace, auth: { kind: 'oauth', scope: 'write' } });

    // Another host is no alias: its resource is refused at the authorization endpoint, as before.
    const foreign = new URL(stored.authorizationUrl!);
    foreign.searchParams.set('resource', `http://127.0.0.1:${port + 1}/mcp`);
    const refused = await browse(foreign.href, cookie);
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_target');
  });
});
