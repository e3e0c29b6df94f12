import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { expectOctolensError, expectOctolensShape, octolens, octolensFixture } from './octolens-shapes.ts';
import { seedMentions } from './mention-seeds.ts';
import { drainWallet } from './seeds.ts';

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

const readKeyOf = async (writeKey: string) => (await earshot.rest('POST', '/v1/api-keys', { key: writeKey, body: { name: 'reader', scope: 'read' } })).body.key as string;

describe('the compatibility API’s paths, credentials and envelope', () => {
  it('answers other versions, unknown paths, unknown methods and trailing slashes 404 NOT_FOUND, key or none', async () => {
    for (const [method, path] of [
      ['POST', '/compat/octolens/api/v1/mentions'],
      ['GET', '/compat/octolens/api/v1/keywords'],
      ['GET', '/compat/octolens/api/v3/keywords'],
      ['GET', '/compat/octolens/keywords'],
      ['GET', '/compat/octolens'],
      ['GET', '/compat/octolens/'],
      ['GET', '/compat/octolens/api/v2/nothing-here'],
      ['GET', '/compat/octolens/api/v2/keywords/'],
      ['POST', '/compat/octolens/api/v2/mentions/'],
      ['PUT', '/compat/octolens/api/v2/keywords'],
      ['GET', '/compat/octolens/api/v2/mentions'],
    ]) {
      for (const credential of [key, undefined]) {
        const response = await earshot.rest(method, path, { key: credential });
        expectOctolensError(response, 404, 'NOT_FOUND');
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    }
  });

  it('answers a missing, unknown or revoked key 401 UNAUTHORIZED', async () => {
    expectOctolensError(await octolens(earshot, 'GET', '/keywords', undefined), 401, 'UNAUTHORIZED');
    expectOctolensError(await octolens(earshot, 'GET', '/keywords', 'mk_live_nope'), 401, 'UNAUTHORIZED');
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', 'mk_live_nope', { limit: 1000 }), 401, 'UNAUTHORIZED');
    expectOctolensError(await octolens(earshot, 'GET', '/notifications', undefined), 401, 'UNAUTHORIZED');
  });

  it('answers whole features it does not offer 501 FEATURE_DISABLED, notifications included', async () => {
    for (const [method, path] of [
      ['GET', '/notifications'],
      ['POST', '/notifications'],
      ['POST', '/notifications/7/test'],
      ['GET', '/feeds'],
      ['POST', '/search'],
      ['GET', '/mentions/by-author'],
      // Called as Octolens documents them, with their query parameters: still 501, not 400 for an unknown parameter.
      ['GET', '/mentions/by-author?source=twitter&handle=%40jane&limit=10'],
      ['GET', '/feeds?excludeWithNotifications=true'],
      ['GET', '/search?limit=5&cursor=abc'],
      ['GET', '/integrations/slack/channels?q=general&pages=2'],
    ]) {
      expectOctolensError(await octolens(earshot, method, path, key, method === 'GET' ? undefined : {}), 501, 'FEATURE_DISABLED');
    }
  });

  it('answers a feature it does not offer 501 FEATURE_DISABLED whatever the query and body, after the credential and a read key’s 403', async () => {
    for (const [method, path, body] of [
      ['GET', '/notifications?limit=5'],
      ['GET', '/feedback/stats?from=2026-01-01&to=bad'],
      ['GET', '/feeds?excludeWithNotifications=maybe&page=2'],
      ['GET', '/mentions/by-author?source=twitter&handle=jane&unknown=1&limit=1&limit=2'],
      ['GET', '/integrations/slack'],
      ['POST', '/search?dryRun=1', { query: 'earshot' }],
      ['POST', '/notifications', '{"name": not json'],
      ['POST', '/ai/filter-wizard', '[1, 2'],
      ['PATCH', '/feeds/7?x=y', 'null'],
    ] as const) {
      expectOctolensError(await octolens(earshot, method, path, key, body), 501, 'FEATURE_DISABLED');
    }
    expectOctolensError(await octolens(earshot, 'GET', '/notifications?limit=5', undefined), 401, 'UNAUTHORIZED');
    expectOctolensError(await octolens(earshot, 'POST', '/notifications?limit=5', await readKeyOf(key), '{"name": not json'), 403, 'FORBIDDEN');
    // The document says so: no 400 (nor 413, the body being left unread) for such a route.
    const document = (await earshot.rest('GET', '/compat/octolens/api/v2/openapi.json')).body;
    for (const [path, operations] of Object.entries<Record<string, { summary: string; responses: Record<string, unknown> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.summary?.includes('FEATURE_DISABLED')) continue;
        expect([method, path, Object.keys(operation.responses).filter((status) => ['400', '413'].includes(status))]).toEqual([method, path, []]);
      }
    }
  });

  it('answers a read key 403 FORBIDDEN on the writes of features it does not offer (spec 5.5: beyond GET a read key only lists and exports), and 501 to its GETs', async () => {
    const reader = await readKeyOf(key);
    for (const [method, path] of [
      ['POST', '/notifications'],
      ['PATCH', '/notifications/7'],
      ['DELETE', '/feeds/7'],
      ['POST', '/search'],
      ['POST', '/ai/filter-wizard'],
      ['POST', '/attention/7/dismiss'],
      ['POST', '/org/upgrade-link'],
    ]) {
      expectOctolensError(await octolens(earshot, method, path, reader, {}), 403, 'FORBIDDEN');
      expectOctolensError(await octolens(earshot, method, path, key, {}), 501, 'FEATURE_DISABLED');
    }
    expectOctolensError(await octolens(earshot, 'GET', '/notifications', reader), 501, 'FEATURE_DISABLED');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', reader, { platforms: ['reddit'] }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', reader, { twitter: 'acme' }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'PATCH', '/keywords/1', reader, { isSubReddit: true }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', reader, { filters: { bookmarked: true } }), 501, 'FEATURE_DISABLED');
  });

  it('lists and exports with no body at all as with {}, every field of theirs being optional; other bodies are still needed', async () => {
    for (const path of ['/mentions', '/mentions/export']) {
      const bare = await octolens(earshot, 'POST', path, key);
      expect(bare.status, JSON.stringify(bare.body)).toBe(200);
      expect(bare.body).toEqual((await octolens(earshot, 'POST', path, key, {})).body);
    }
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', key, 'null'), 400, 'VALIDATION_ERROR', { details: [] });
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', key), 400, 'VALIDATION_ERROR', { details: [] });
    const document = (await earshot.rest('GET', '/v1/openapi.json')).body;
    expect(document.paths['/compat/octolens/api/v2/mentions'].post.requestBody.required).toBe(false);
    expect(document.paths['/compat/octolens/api/v2/keywords'].post.requestBody.required).toBe(true);
  });

  it('answers bad input 400 VALIDATION_ERROR in the recorded envelope, naming the field in `details`', async () => {
    const fixture = octolensFixture('error');
    const response = await octolens(earshot, fixture.request.method, '/mentions', key, fixture.request.body);
    expectOctolensShape({ ...response, body: { error: { ...response.body.error, details: [] } } }, 'error');
    expectOctolensError(response, 400, 'VALIDATION_ERROR', { details: [{ path: ['limit'], message: expect.stringContaining('limit') }] });
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', key, '{"limit":'), 400, 'VALIDATION_ERROR', { details: [] });
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', key, { filters: { keyword: Array.from({ length: 51 }, (_, i) => i + 1) } }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['filters', 'keyword'], message: expect.stringContaining('at most 50') }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/keywords/1', key, { keyword: 42 }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['keyword'], message: expect.any(String) }],
    });
  });

  // Octolens's reference: VALIDATION_ERROR "responses include a `details` array with per-field issues". Only the first was listed.
  it('lists every problem of the input in `details`, the message being the first one', async () => {
    const body = await octolens(earshot, 'POST', '/mentions', key, { includeAll: 'yes', limit: 1000, sortBy: 'date', cursor: 7 });
    expectOctolensError(body, 400, 'VALIDATION_ERROR', {
      details: [
        { path: ['sortBy'], message: expect.stringMatching(/^sortBy: unknown field/) },
        { path: ['includeAll'], message: 'includeAll: expected true or false, got a string' },
        { path: ['limit'], message: expect.stringMatching(/^limit: /) },
        { path: ['cursor'], message: 'cursor: expected a string, got a number' },
      ],
    });
    expect(body.body.error.message).toBe(body.body.error.details[0].message);
    const query = await octolens(earshot, 'GET', '/analytics/sentiment?bucket=day&window=7&sentiment=happy', key);
    expectOctolensError(query, 400, 'VALIDATION_ERROR', {
      details: [
        { path: ['bucket'], message: expect.stringContaining('bucket: unknown query parameter') },
        { path: ['window'], message: expect.stringContaining('window: unknown query parameter') },
        { path: ['sentiment', '0'], message: expect.stringMatching(/^sentiment\.0: /) },
      ],
    });
    expect(query.body.error.message).toBe(query.body.error.details[0].message);
  });

  it('bounds the keyword ids one filter names at 50 (spec 8): keyword, !keyword and every group together, on the list, the export and analytics', async () => {
    const ids = (count: number, from = 1) => Array.from({ length: count }, (_, i) => from + i);
    const wholeFilter = { details: [{ path: ['filters'], message: expect.stringContaining('at most 50') }] };
    for (const path of ['/mentions', '/mentions/export']) {
      expectOctolensError(await octolens(earshot, 'POST', path, key, { filters: { keyword: ids(30), '!keyword': ids(21, 100) } }), 400, 'VALIDATION_ERROR', wholeFilter);
      const grouped = { keyword: ids(40), groups: [{ operator: 'OR', conditions: [{ keyword: ids(11, 100) }, { '!keyword': ids(5, 200) }] }] };
      expectOctolensError(await octolens(earshot, 'POST', path, key, { filters: grouped }), 400, 'VALIDATION_ERROR', wholeFilter);
      // 50 distinct ids, one of them named twice, is within the bound.
      expect((await octolens(earshot, 'POST', path, key, { filters: { keyword: ids(30), '!keyword': [...ids(20, 100), 1] } })).status).toBe(200);
    }
    expectOctolensError(await octolens(earshot, 'GET', `/analytics/keywords?keywordIds=${ids(51).join(',')}`, key), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['keywordIds'], message: expect.stringContaining('at most 50') }],
    });
    expect((await octolens(earshot, 'GET', `/analytics/keywords?keywordIds=${ids(50).join(',')}`, key)).status).toBe(200);
  });

  it('takes any safe integer where Octolens takes an id: one it never gave names nothing, never a 400 naming its own operation’s variables', async () => {
    const huge = 3_000_000_000;
    for (const filters of [{ keyword: [huge] }, { keyword: [String(huge)] }, { groups: [{ operator: 'AND', conditions: [{ keyword: [Number.MAX_SAFE_INTEGER] }] }] }]) {
      const list = await octolens(earshot, 'POST', '/mentions', key, { filters });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data).toEqual([]);
    }
    expect((await octolens(earshot, 'POST', '/mentions', key, { filters: { '!keyword': [huge] } })).status).toBe(200);
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', key, { view: huge }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', key, { view: huge }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords/suggestions', key, { suggestionId: huge }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { keywordId: huge }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { suggestionId: -huge }), 404, 'NOT_FOUND');
    const counted = await octolens(earshot, 'GET', `/analytics/keywords?keywordIds=${huge}`, key);
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body.data).toEqual([]);
  });

  it('takes a mention’s own timestamp (YYYY-MM-DD HH:mm:ss.SSS, UTC) back as startDate and endDate, as ISO 8601 without an offset too', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace('Timestamps');
    const created = await octolens(earshot, 'POST', '/keywords', apiKey, { keyword: 'kappa app' });
    const [{ id: keywordId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${workspace.id}`;
    const score = { relevance: 80, sentiment: 'neutral' as const };
    await seedMentions(earshot.sql, workspace.id, [
      { keywordId, publishedAt: new Date('2026-05-06T13:35:37.250Z'), score },
      { keywordId, publishedAt: new Date('2026-05-06T13:35:38.000Z'), score },
    ]);
    const listed = await octolens(earshot, 'POST', '/mentions', apiKey, { filters: { keyword: [created.body.id] } });
    const [newer, older] = listed.body.data;
    expect([newer.timestamp, older.timestamp]).toEqual(['2026-05-06 13:35:38.000', '2026-05-06 13:35:37.250']);
    const after = await octolens(earshot, 'POST', '/mentions', apiKey, { filters: { startDate: newer.timestamp } });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.data.map((row: { id: number }) => row.id)).toEqual([newer.id]);
    const upTo = await octolens(earshot, 'POST', '/mentions/export', apiKey, { filters: { endDate: older.timestamp } });
    expect(upTo.body.data.map((row: { id: number }) => row.id)).toEqual([older.id]);
    const noOffset = await octolens(earshot, 'POST', '/mentions', apiKey, { filters: { startDate: '2026-05-06T13:35:37.5', endDate: '2026-05-06 13:35:38.000000001' } });
    expect(noOffset.body.data.map((row: { id: number }) => row.id)).toEqual([newer.id]);
    for (const bad of ['2026-02-30 00:00:00', '2026-05-06 25:00:00', '2026-05-06 13:35', 'yesterday']) {
      expectOctolensError(await octolens(earshot, 'POST', '/mentions', apiKey, { filters: { startDate: bad } }), 400, 'VALIDATION_ERROR', {
        details: [{ path: ['filters', 'startDate'], message: expect.stringContaining('ISO 8601') }],
      });
    }
  });

  it('shows the classifier’s own bucket as the feedback record’s originalRelevanceScore, whatever the verdict', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace('Feedback');
    await octolens(earshot, 'POST', '/keywords', apiKey, { keyword: 'lambda db' });
    const [{ id: keywordId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${workspace.id}`;
    const [medium, high] = await seedMentions(earshot.sql, workspace.id, [
      { keywordId, score: { relevance: 55, sentiment: 'neutral' } },
      { keywordId, score: { relevance: 90, sentiment: 'neutral' } },
    ]);
    const relevant = await octolens(earshot, 'POST', '/feedback', apiKey, { sourceId: medium, feedbackType: 'RELEVANT', originalRelevanceScore: 2 });
    expect(relevant.body).toMatchObject({ feedbackType: 'RELEVANT', originalRelevanceScore: 1 });
    expect((await octolens(earshot, 'GET', `/mentions/${medium}`, apiKey)).body.relevanceScore).toBe(0);
    expect((await octolens(earshot, 'POST', '/feedback', apiKey, { sourceId: high, feedbackType: 'NOT_RELEVANT' })).body).toMatchObject({ originalRelevanceScore: 0 });
  });

  it('describes itself at GET /api/v2/openapi.json, as Octolens does, with no key: its routes alone, OpenAPI 3.1', async () => {
    const response = await octolens(earshot, 'GET', '/openapi.json', undefined);
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect((await new Validator().validate(response.body)).valid).toBe(true);
    const paths = Object.keys(response.body.paths);
    expect(paths).toContain('/compat/octolens/api/v2/mentions');
    expect(paths).toContain('/compat/octolens/api/v2/openapi.json');
    expect(paths.every((path) => path.startsWith('/compat/octolens/api/v2/'))).toBe(true);
    const all = (await earshot.rest('GET', '/v1/openapi.json')).body;
    expect(response.body.paths['/compat/octolens/api/v2/mentions']).toEqual(all.paths['/compat/octolens/api/v2/mentions']);
    expect(response.body.components.schemas.OctolensMention).toEqual(all.components.schemas.OctolensMention);
    expect((await octolens(earshot, 'GET', '/openapi.json', key)).status).toBe(200);
  });

  it('shows the compatibility routes in openapi.json under their own tag, with the Octolens envelope', async () => {
    const document = (await earshot.rest('GET', '/v1/openapi.json')).body;
    const operation = document.paths['/compat/octolens/api/v2/mentions'].post;
    expect(operation.tags).toEqual(['Octolens compatibility']);
    expect(operation.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OctolensError' });
    expect(document.paths['/v1/keywords'].get.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });
});

describe('keywords', () => {
  it('creates in the recorded shape, returns a tracked term again, and refuses a duplicate with allowDuplicate (409 ITEM_EXISTS)', async () => {
    const fixture = octolensFixture('create-keyword');
    const body = { ...(fixture.request.body as object), isSubReddit: false, keyword: 'Acme Corp', excludeWords: 'jobs, hiring', wildcardExcludeWords: 'spam*', excludeAuthors: '' };
    const created = await octolens(earshot, 'POST', '/keywords', key, body);
    expectOctolensShape(created, 'create-keyword');
    expect(created.body).toEqual({
      id: expect.any(Number),
      keyword: 'Acme Corp',
      context: '<string>',
      additionalTerms: 'deployment, preview',
      additionalTermsAndOr: true,
      caseSensitive: false,
      symbolSensitive: true,
      platforms: ['reddit'],
      excludeWords: 'jobs, hiring',
      wildcardExcludeWords: 'spam*',
      excludeAuthors: null,
      tag: 'own_brand',
      paused: false,
      isSubReddit: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      alreadyExisted: false,
    });
    const again = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'acme corp', platforms: ['twitter'] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: created.body.id, keyword: 'Acme Corp', platforms: ['reddit'], alreadyExisted: true });
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', key, { keyword: 'ACME CORP', allowDuplicate: true }), 409, 'ITEM_EXISTS');
    const list = await octolens(earshot, 'GET', '/keywords', key);
    expect(list.body.data.filter((keyword: { keyword: string }) => keyword.keyword.toLowerCase() === 'acme corp')).toHaveLength(1);
  });

  // Found by a parallel probe: all but the first of requests sent at once answered 409 ITEM_EXISTS instead of the keyword.
  it('returns the one keyword with alreadyExisted to every other create of a term sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => octolens(earshot, 'POST', '/keywords', key, { keyword: 'simultaneous term' })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.alreadyExisted === false)).toHaveLength(1);
  });

  it('lists every keyword by term in the recorded shape, Octolens’s platform names included', async () => {
    await octolens(earshot, 'POST', '/keywords', key, { keyword: 'zeta widgets', platforms: ['twitter', 'dev', 'hackernews'], tag: 'competitor' });
    await octolens(earshot, 'POST', '/keywords', key, { keyword: 'beta tools' });
    const list = await octolens(earshot, 'GET', '/keywords', key);
    expectOctolensShape(list, 'list-keywords');
    const terms = list.body.data.map((keyword: { keyword: string }) => keyword.keyword);
    expect(terms).toEqual([...terms].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const zeta = list.body.data.find((keyword: { keyword: string }) => keyword.keyword === 'zeta widgets');
    expect(zeta).toMatchObject({ platforms: ['x', 'devto', 'hackernews'].map((p) => ({ x: 'twitter', devto: 'dev' })[p] ?? p), tag: 'competitor' });
    const beta = list.body.data.find((keyword: { keyword: string }) => keyword.keyword === 'beta tools');
    expect(beta.platforms).toEqual(['bluesky', 'hackernews', 'github', 'stackoverflow', 'dev', 'reddit', 'twitter', 'youtube', 'news', 'linkedin', 'tiktok', 'instagram']);
    expect(beta.tag).toBe('own_brand');
  });

  it('updates in the recorded shape: one exclusion list written keeps the other, empty strings clear, our bounds named in Octolens’s terms', async () => {
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'gamma db', excludeWords: 'jobs', wildcardExcludeWords: '*bot' });
    const fixture = octolensFixture('update-keyword');
    const updated = await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { ...(fixture.request.body as object), wildcardExcludeWords: undefined });
    expectOctolensShape(updated, 'update-keyword');
    expect(updated.body).toMatchObject({ id: created.body.id, keyword: 'gamma db', excludeWords: '<string>', wildcardExcludeWords: '*bot', additionalTerms: '<string>' });
    const isoTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(created.body).toMatchObject({ createdAt: isoTime, updatedAt: isoTime });
    expect(updated.body).toMatchObject({ createdAt: created.body.createdAt, updatedAt: isoTime });
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
    const cleared = await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { excludeWords: '', additionalTerms: '', additionalTermsAndOr: false });
    expect(cleared.body).toMatchObject({ excludeWords: null, wildcardExcludeWords: '*bot', additionalTerms: null, additionalTermsAndOr: false });
    expectOctolensError(await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { keyword: 'x' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['keyword'], message: 'keyword: must be 2 to 80 characters' }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { platforms: ['myspace'] }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['platforms', '0'], message: expect.stringContaining('myspace') }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/keywords/999999', key, { context: 'x' }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'PATCH', '/keywords/kw_nope', key, { context: 'x' }), 404, 'NOT_FOUND');
  });

  it('names the exclusion list the caller sent, wildcardExcludeWords or excludeWords, when our one list of excluded terms refuses an entry or their count', async () => {
    const long = (prefix: string) => `${prefix}${'x'.repeat(80)}`;
    const terms = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(', ');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', key, { keyword: 'mu tools', excludeWords: 'jobs, hiring', wildcardExcludeWords: `spam*, ${long('*')}` }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['wildcardExcludeWords', '1'], message: expect.stringMatching(/^wildcardExcludeWords\.1: /) }],
    });
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', key, { keyword: 'mu tools', wildcardExcludeWords: terms(51, '*w') }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['wildcardExcludeWords'], message: expect.stringMatching(/^wildcardExcludeWords: .*50/) }],
    });
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'mu tools', excludeWords: 'jobs, hiring' });
    // The plain terms kept from the keyword come first in our list; the entry refused is the wildcard list's second.
    expectOctolensError(await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { wildcardExcludeWords: `*bot, ${long('x')}*` }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['wildcardExcludeWords', '1'], message: expect.stringMatching(/^wildcardExcludeWords\.1: /) }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { excludeWords: long('y') }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['excludeWords', '0'], message: expect.stringMatching(/^excludeWords\.0: /) }],
    });
  });

  it('answers a subreddit keyword (isSubReddit: true) 501 FEATURE_DISABLED and changes nothing', async () => {
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', key, { keyword: 'r/nextjs', isSubReddit: true }), 501, 'FEATURE_DISABLED');
    const list = await octolens(earshot, 'GET', '/keywords', key);
    expect(list.body.data.map((keyword: { keyword: string }) => keyword.keyword)).not.toContain('r/nextjs');
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'iota lib', isSubReddit: null });
    expect(created.body.isSubReddit).toBeNull();
    expectOctolensError(await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { isSubReddit: true, context: 'changed' }), 501, 'FEATURE_DISABLED');
    expect((await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { isSubReddit: false })).body).toMatchObject({ context: null, isSubReddit: null });
  });

  it('shows excluded authors as they were typed, the canonical forms that stand for more kept as they are', async () => {
    const typed = 'spambot1, Crypto Guy, @handle, u/redditor, https://x.com/someone, name:@odd';
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'theta cli', excludeAuthors: typed });
    expect(created.body.excludeAuthors).toBe('spambot1, crypto guy, @handle, reddit:redditor, x:someone, name:@odd');
    // Read, append, write back: the list stays what it was.
    const again = await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { excludeAuthors: `${created.body.excludeAuthors}, newbot` });
    expect(again.body.excludeAuthors).toBe(`${created.body.excludeAuthors}, newbot`);
    const stored = (await earshot.rest('GET', '/v1/keywords', { key })).body.data.find((keyword: { term: string }) => keyword.term === 'theta cli');
    expect(stored.matching.excludedAuthors).toEqual(['name:spambot1', 'name:crypto guy', '@handle', 'reddit:redditor', 'x:someone', 'name:@odd', 'name:newbot']);
  });

  it('pauses and resumes with one route, and deletes (then 404)', async () => {
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'delta api' });
    const paused = await octolens(earshot, 'POST', `/keywords/${created.body.id}/pause`, key);
    expectOctolensShape(paused, 'toggle-keyword-pause');
    expect(paused.body.paused).toBe(true);
    expect((await octolens(earshot, 'POST', `/keywords/${created.body.id}/pause`, key)).body.paused).toBe(false);
    const deleted = await octolens(earshot, 'DELETE', `/keywords/${created.body.id}`, key);
    expectOctolensShape(deleted, 'delete-keyword');
    expect(deleted.body).toEqual({ ok: true, id: created.body.id, keyword: 'delta api' });
    expectOctolensError(await octolens(earshot, 'POST', `/keywords/${created.body.id}/pause`, key), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'DELETE', `/keywords/${created.body.id}`, key), 404, 'NOT_FOUND');
  });

  it('lists suggestions in the recorded shape, for one keyword and for all', async () => {
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'epsilon sdk', excludeWords: 'jobs' });
    const one = await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${created.body.id}`, key);
    expectOctolensShape(one, 'list-keyword-suggestions');
    // Made without symbolSensitive: Octolens's default on create, an exact phrase.
    expect(one.body.keyword).toMatchObject({ excludeWords: 'jobs', additionalTermsAndOr: true, symbolSensitive: true });
    const all = await octolens(earshot, 'GET', '/keywords/suggestions', key);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ suggestions: expect.any(Array), totalSuggestionCount: all.body.suggestions.length, nextCursor: null });
    expect(all.body.keywords).toContainEqual({ id: created.body.id, keyword: 'epsilon sdk', volume: 0 });
    expectOctolensError(await octolens(earshot, 'GET', '/keywords/suggestions?keywordId=999999', key), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords/suggestions', key, { suggestionId: 999999 }), 404, 'NOT_FOUND');
  });

  it('creates nothing when the wallet cannot pay a day of one more keyword (402 QUOTA_EXCEEDED)', async () => {
    const poor = await earshot.createWorkspace('Poor');
    const first = await octolens(earshot, 'POST', '/keywords', poor.apiKey, { keyword: 'first term' });
    expect(first.status).toBe(200);
    const [{ id: keywordId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${poor.workspace.id}`;
    await drainWallet(earshot.sql, poor.workspace.id, keywordId);
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', poor.apiKey, { keyword: 'second term' }), 402, 'QUOTA_EXCEEDED');
    const list = await octolens(earshot, 'GET', '/keywords', poor.apiKey);
    expect(list.body.data.map((keyword: { keyword: string }) => keyword.keyword)).toEqual(['first term']);
    const usage = await octolens(earshot, 'GET', '/org/usage', poor.apiKey);
    expect(usage.body.keywords.count).toBeGreaterThanOrEqual(usage.body.keywords.limit);
  });

  // Found by a parallel probe: each create checked the wallet before the others committed, so all were created.
  it('creates one of keywords sent at once on a wallet covering one more, 402 QUOTA_EXCEEDED for the others', async () => {
    const poor = await earshot.createWorkspace('Poor at once');
    await octolens(earshot, 'POST', '/keywords', poor.apiKey, { keyword: 'first term' });
    const [{ id: keywordId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${poor.workspace.id}`;
    await drainWallet(earshot.sql, poor.workspace.id, keywordId, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => octolens(earshot, 'POST', '/keywords', poor.apiKey, { keyword: `raced term ${index}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402, 402, 402]);
    for (const answer of answers.filter((answer) => answer.status === 402)) expectOctolensError(answer, 402, 'QUOTA_EXCEEDED');
    expect((await octolens(earshot, 'GET', '/keywords', poor.apiKey)).body.data).toHaveLength(2);
  });

  it('lets a read key list but not change (403 FORBIDDEN)', async () => {
    const reader = await readKeyOf(key);
    expect((await octolens(earshot, 'GET', '/keywords', reader)).status).toBe(200);
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', reader, { keyword: 'reader term' }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords', reader, { keyword: 1 }), 403, 'FORBIDDEN');
  });
});

describe('global filters', () => {
  it('reads and replaces the five lists in the recorded shape', async () => {
    expectOctolensShape(await octolens(earshot, 'GET', '/filters/global', key), 'get-global-filters');
    const replaced = await octolens(earshot, 'PATCH', '/filters/global', key, {
      negativeKeywords: ['scam', '@spambot'],
      negativeSubreddits: ['r/UnpopularOpinion'],
      positiveSubreddits: ['nextjs'],
      negativeRepos: ['https://github.com/Acme/Spam-Repo'],
    });
    expectOctolensShape(replaced, 'update-global-filters');
    expect(replaced.body).toEqual({
      negativeKeywords: ['scam', '@spambot'],
      negativeAuthors: [],
      negativeSubreddits: ['unpopularopinion'],
      positiveSubreddits: ['nextjs'],
      negativeRepos: ['acme/spam-repo'],
    });
    expect((await earshot.rest('GET', '/v1/filters', { key })).body).toMatchObject({ excludedTerms: ['scam', '@spambot'], subreddits: { allowed: ['nextjs'], denied: ['unpopularopinion'] } });
  });

  it('adds values (dropping a subreddit the other list holds) and removes them, in the recorded shapes', async () => {
    const added = await octolens(earshot, 'POST', '/filters/global/add', key, { list: 'negativeKeywords', values: ['giveaway', 'scam'] });
    expectOctolensShape(added, 'add-global-filter-values');
    expect(added.body).toEqual({ list: 'negativeKeywords', added: ['giveaway'], dropped: [], values: ['scam', '@spambot', 'giveaway'] });
    const dropped = await octolens(earshot, 'POST', '/filters/global/add', key, { list: 'negativeSubreddits', values: ['r/NextJS', 'rust'] });
    expect(dropped.body).toEqual({ list: 'negativeSubreddits', added: ['rust'], dropped: ['nextjs'], values: ['unpopularopinion', 'rust'] });
    const removed = await octolens(earshot, 'POST', '/filters/global/remove', key, { list: 'negativeKeywords', values: ['scam', 'never-there'] });
    expectOctolensShape(removed, 'remove-global-filter-values');
    expect(removed.body).toEqual({ list: 'negativeKeywords', removed: ['scam'], values: ['@spambot', 'giveaway'] });
  });

  it('shows negative authors as they were typed, on read, replace, add and remove', async () => {
    const other = await earshot.createWorkspace('Authors');
    const replaced = await octolens(earshot, 'PATCH', '/filters/global', other.apiKey, { negativeAuthors: ['spambot1', '@handle'] });
    expect(replaced.body.negativeAuthors).toEqual(['spambot1', '@handle']);
    const added = await octolens(earshot, 'POST', '/filters/global/add', other.apiKey, { list: 'negativeAuthors', values: ['Crypto Guy'] });
    expect(added.body).toEqual({ list: 'negativeAuthors', added: ['crypto guy'], dropped: [], values: ['spambot1', '@handle', 'crypto guy'] });
    const removed = await octolens(earshot, 'POST', '/filters/global/remove', other.apiKey, { list: 'negativeAuthors', values: ['spambot1'] });
    expect(removed.body).toEqual({ list: 'negativeAuthors', removed: ['spambot1'], values: ['@handle', 'crypto guy'] });
    expect((await octolens(earshot, 'GET', '/filters/global', other.apiKey)).body.negativeAuthors).toEqual(['@handle', 'crypto guy']);
    expect((await earshot.rest('GET', '/v1/filters', { key: other.apiKey })).body.excludedAuthors).toEqual(['@handle', 'name:crypto guy']);
  });

  it('empties a list only with confirmClear (400 CLEAR_NOT_CONFIRMED), and an empty list needs none', async () => {
    expectOctolensError(await octolens(earshot, 'PATCH', '/filters/global', key, { negativeKeywords: [] }), 400, 'CLEAR_NOT_CONFIRMED');
    expectOctolensError(await octolens(earshot, 'POST', '/filters/global/remove', key, { list: 'negativeKeywords', values: ['@spambot', 'giveaway'] }), 400, 'CLEAR_NOT_CONFIRMED');
    expect((await octolens(earshot, 'GET', '/filters/global', key)).body.negativeKeywords).toEqual(['@spambot', 'giveaway']);
    const cleared = await octolens(earshot, 'POST', '/filters/global/remove', key, { list: 'negativeKeywords', values: ['@spambot', 'giveaway'], confirmClear: true });
    expect(cleared.body).toEqual({ list: 'negativeKeywords', removed: ['@spambot', 'giveaway'], values: [] });
    expect((await octolens(earshot, 'PATCH', '/filters/global', key, { negativeAuthors: [] })).status).toBe(200);
    expect((await octolens(earshot, 'PATCH', '/filters/global', key, { negativeRepos: [], confirmClear: true })).body.negativeRepos).toEqual([]);
    // Partial, but naming at least one list.
    expectOctolensError(await octolens(earshot, 'PATCH', '/filters/global', key, {}), 400, 'VALIDATION_ERROR', { details: [] });
    expectOctolensError(await octolens(earshot, 'PATCH', '/filters/global', key, { confirmClear: true }), 400, 'VALIDATION_ERROR', { details: [] });
  });

  it('refuses a subreddit both allowed and excluded (409 FEED_FILTER_WRITE_CONFLICT) and changes nothing', async () => {
    const before = (await octolens(earshot, 'GET', '/filters/global', key)).body;
    expectOctolensError(await octolens(earshot, 'PATCH', '/filters/global', key, { positiveSubreddits: ['rust'] }), 409, 'FEED_FILTER_WRITE_CONFLICT');
    expectOctolensError(await octolens(earshot, 'PATCH', '/filters/global', key, { negativeSubreddits: ['go'], positiveSubreddits: ['r/go'] }), 409, 'FEED_FILTER_WRITE_CONFLICT');
    expect((await octolens(earshot, 'GET', '/filters/global', key)).body).toEqual(before);
    expectOctolensError(await octolens(earshot, 'POST', '/filters/global/add', key, { list: 'nope', values: ['x'] }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['list'], message: expect.any(String) }],
    });
  });
});

describe('organization, usage, members and tags', () => {
  it('shows the workspace, its wallet as a quota, its members and the tags, in the recorded shapes', async () => {
    const organization = await octolens(earshot, 'GET', '/org', key);
    expectOctolensShape(organization, 'get-organization');
    expect(organization.body).toMatchObject({ organizationId: workspaceId, name: 'Acme', plan: 'welcome_credit', platforms: 'all', freeTrialExpired: false });
    const usage = await octolens(earshot, 'GET', '/org/usage', key);
    expectOctolensShape(usage, 'get-usage');
    const wallet = (await earshot.rest('GET', '/v1/billing/wallet', { key })).body;
    // $5.80 less what is due: each limit is what the effective balance still pays for (a mention 0.8 cents, a keyword day 50/3 cents).
    expect(usage.body).toEqual({
      plan: 'welcome_credit',
      mentions: { count: 0, limit: expect.any(Number), resetAt: null },
      keywords: { count: wallet.activeKeywords, limit: expect.any(Number) },
    });
    expect(Math.abs(usage.body.mentions.limit - Math.floor((wallet.effectiveCents * 15) / 12))).toBeLessThanOrEqual(1);
    expect(Math.abs(usage.body.keywords.limit - Math.floor((wallet.effectiveCents * 15) / 250))).toBeLessThanOrEqual(1);
    expectOctolensShape(await octolens(earshot, 'GET', '/org/members', key), 'list-members');
    const tags = await octolens(earshot, 'GET', '/tags', key);
    expectOctolensShape(tags, 'list-tags');
    expect(tags.body).toEqual({ data: ['buy_intent', 'comparison', 'complaint', 'praise', 'question'] });
  });

  it('lists an owner as an admin, and refuses member removal to an API key (403 FORBIDDEN): team changes are a signed-in owner’s', async () => {
    const team = await provisionWorkspace(earshot.sql, 'Owned', { ownerEmail: 'olive@example.com' });
    const members = await octolens(earshot, 'GET', '/org/members', team.apiKey);
    expectOctolensShape(members, 'list-members');
    expect(members.body.data).toEqual([
      { id: team.owner!.id, userId: team.owner!.id, email: 'olive@example.com', firstName: expect.any(String), lastName: null, role: 'admin', createdAt: expect.any(String) },
    ]);
    expectOctolensError(await octolens(earshot, 'DELETE', `/org/members/${team.owner!.id}`, team.apiKey), 403, 'FORBIDDEN');
    // A key is refused whichever member it names, before the id is looked up.
    expectOctolensError(await octolens(earshot, 'DELETE', '/org/members/usr_nobody', team.apiKey), 403, 'FORBIDDEN');
  });
});

describe('organization changes', () => {
  it('renames the workspace in the recorded shape, takes `platforms: "all"`, and the new name is the one /v1/whoami shows', async () => {
    const { apiKey } = await earshot.createWorkspace('Before');
    const fixture = octolensFixture('update-organization');
    const renamed = await octolens(earshot, 'PATCH', '/org', apiKey, { ...(fixture.request.body as object), name: '  Acme Labs ' });
    expectOctolensShape(renamed, 'update-organization');
    const before = (await octolens(earshot, 'GET', '/org', apiKey)).body;
    expect(renamed.body).toEqual({ ...before, name: 'Acme Labs' });
    expect((await earshot.rest('GET', '/v1/whoami', { key: apiKey })).body.workspace.name).toBe('Acme Labs');
    expect((await octolens(earshot, 'PATCH', '/org', apiKey, {})).body).toEqual(renamed.body);
  });

  it('refuses a platform list 501 FEATURE_DISABLED, a blank or long name 400 VALIDATION_ERROR and a read key 403 FORBIDDEN, renaming nothing', async () => {
    const { apiKey } = await earshot.createWorkspace('Unchanged');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', apiKey, { name: 'Other', platforms: ['reddit'] }), 501, 'FEATURE_DISABLED');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', apiKey, { name: '   ' }), 400, 'VALIDATION_ERROR', { details: [{ path: ['name'], message: expect.any(String) }] });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', apiKey, { name: 'x'.repeat(101) }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['name'], message: expect.any(String) }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', apiKey, { platforms: 'some' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['platforms'], message: expect.any(String) }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org', await readKeyOf(apiKey), { name: 'Other' }), 403, 'FORBIDDEN');
    expect((await octolens(earshot, 'GET', '/org', apiKey)).body.name).toBe('Unchanged');
  });
});

describe('company profile', () => {
  const empty = {
    id: 1,
    name: null,
    domain: null,
    website: null,
    logo: null,
    industry: null,
    sector: null,
    tags: null,
    description: null,
    linkedin: null,
    twitter: null,
    relevanceContext: null,
    productUseCases: null,
    competitors: null,
    companyMoat: null,
    relevanceGuidelines: null,
    classificationGuidelines: null,
  };

  it('shows and changes the profile the classifier reads in the recorded shapes, as /v1/company-profile keeps it', async () => {
    const { apiKey } = await earshot.createWorkspace('Profiled');
    const fresh = await octolens(earshot, 'GET', '/org/company', apiKey);
    expectOctolensShape(fresh, 'get-company');
    expect(fresh.body).toEqual(empty);
    expect((await earshot.rest('PATCH', '/v1/company-profile', { key: apiKey, body: { website: 'vercel.com' } })).status).toBe(200);
    const changed = await octolens(earshot, 'PATCH', '/org/company', apiKey, {
      name: 'Vercel',
      description: 'Cloud platform for frontend teams',
      competitors: 'Netlify, Render, netlify',
      relevanceGuidelines: 'Deployments, not vehicles',
    });
    expectOctolensShape(changed, 'update-company');
    const profile = {
      ...empty,
      name: 'Vercel',
      domain: 'vercel.com',
      website: 'https://vercel.com',
      description: 'Cloud platform for frontend teams',
      competitors: 'Netlify, Render',
      relevanceGuidelines: 'Deployments, not vehicles',
    };
    expect(changed.body).toEqual(profile);
    expect((await octolens(earshot, 'GET', '/org/company', apiKey)).body).toEqual(profile);
    expect((await earshot.rest('GET', '/v1/company-profile', { key: apiKey })).body).toMatchObject({ competitors: ['Netlify', 'Render'], guidelines: 'Deployments, not vehicles' });
    // A JSON array is taken too; an empty text clears the list, a blank one the field.
    expect((await octolens(earshot, 'PATCH', '/org/company', apiKey, { competitors: '["Fly.io", "Render"]' })).body.competitors).toBe('Fly.io, Render');
    expect((await octolens(earshot, 'PATCH', '/org/company', apiKey, { competitors: '', description: ' ' })).body).toEqual({ ...profile, competitors: null, description: null });
  });

  it('refuses fields Earshot does not keep 501 FEATURE_DISABLED, bad values 400 VALIDATION_ERROR and a read key 403 FORBIDDEN, changing nothing', async () => {
    const { apiKey } = await earshot.createWorkspace('Unprofiled');
    const fixture = octolensFixture('update-company');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', apiKey, fixture.request.body), 501, 'FEATURE_DISABLED');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', apiKey, { name: 'Acme', twitter: 'acme' }), 501, 'FEATURE_DISABLED');
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', apiKey, { competitors: '["Acme", 3]' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['competitors'], message: expect.stringContaining('JSON array of strings') }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', apiKey, { name: 'x'.repeat(101) }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['name'], message: expect.any(String) }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', apiKey, { website: 'acme.com' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['website'], message: expect.any(String) }],
    });
    expectOctolensError(await octolens(earshot, 'PATCH', '/org/company', await readKeyOf(apiKey), { name: 'Acme' }), 403, 'FORBIDDEN');
    expect((await octolens(earshot, 'GET', '/org/company', apiKey)).body).toEqual(empty);
  });
});

describe('the shared rate limit', () => {
  it('counts /v1 and compatibility requests against one budget and puts X-RateLimit-* on compatibility answers', async () => {
    const limited = await startTestEarshot({ rateLimitPerMinute: 4 }, { databaseUrl: earshot.databaseUrl });
    try {
      const second = new Date().getUTCSeconds();
      if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
      const { apiKey } = await limited.createWorkspace('Budget');
      const seen = [];
      for (const [method, path] of [['GET', '/v1/whoami'], ['GET', '/compat/octolens/api/v2/org'], ['GET', '/v1/keywords'], ['GET', '/compat/octolens/api/v2/keywords']]) {
        const response = await limited.rest(method, path, { key: apiKey });
        expect(response.status).toBe(200);
        seen.push([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]);
        expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      }
      expect(seen).toEqual([['4', '3'], ['4', '2'], ['4', '1'], ['4', '0']]);
      const over = await limited.rest('POST', '/compat/octolens/api/v2/mentions', { key: apiKey, body: {} });
      const retryAfter = Number(over.headers.get('retry-after'));
      expectOctolensError(over, 429, 'RATE_LIMITED', { retryAfterSeconds: retryAfter });
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await limited.rest('GET', '/v1/whoami', { key: apiKey })).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });

  it('gives X-RateLimit-Reset on compatibility answers as the Unix time in seconds the window resets, as Octolens does; /v1 keeps the seconds left', async () => {
    const before = Math.floor(Date.now() / 1000);
    for (const response of [await octolens(earshot, 'GET', '/org', key), await octolens(earshot, 'GET', '/keywords', key)]) {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(before);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    }
    const ours = Number((await earshot.rest('GET', '/v1/whoami', { key })).headers.get('x-ratelimit-reset'));
    expect(ours).toBeGreaterThan(0);
    expect(ours).toBeLessThanOrEqual(60);
  });
});
