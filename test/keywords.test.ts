import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseRunningKeywordsForBalance, resumeKeywordsPausedForBalance } from '../subgraphs/billing/keyword-accounting-store.ts';
import { pauseKeywordsForNoise } from '../subgraphs/keywords/keyword-run-state-store.ts';
import { findKeyword } from '../subgraphs/keywords/keyword-store.ts';
import { comparableKeyword } from './comparable-keyword.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { drainWallet } from './seeds.ts';
import { eventsOf } from './billing-seed.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';

let earshot: TestEarshot;
let key: string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(() => earshot?.stop());

describe('keywords over REST', () => {
  it('creates a keyword with every field of spec 2.1 present', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: '"Acme Cloud"' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^kw_/),
      term: 'Acme Cloud',
      kind: 'brand',
      muted: false,
      pausedForBalance: false,
      pausedForNoise: false,
      pausedForCap: false,
      cap: { mentions: 200, per: 'month', used: 0, welcome: true, own: null, ownPer: null, resumesAt: null },
      comments: { enabled: false, maxPerPost: 20 },
      group: { id: expect.stringMatching(/^grp_/), name: 'Default', externalId: null, isDefault: true },
      platforms: null,
      feeds: [],
      reviewSources: [],
      context: null,
      matching: {
        requiredTerms: [],
        requiredMode: 'any',
        excludedTerms: [],
        excludedAuthors: [],
        caseSensitive: false,
        exactPhrase: true,
        subreddits: { only: [], excluded: [] },
        repositories: { events: ['traction', 'stars', 'growth'], minStars: null, minWeeklyStars: null },
      },
      stats: {
        mentions: 0,
        relevant: 0,
        last7d: 0,
        thisMonth: 0,
        lastMentionAt: null,
        feedback: { relevant: 0, notRelevant: 0 },
        noise: { scored: 0, relevant: 0, noisy: false },
        health: 'new',
        cost: { keywordDays: 0, keywordCents: 0, billableMentions: 0, mentionCents: 0, billableComments: 0, commentCents: 0, totalCents: 0 },
      },
      // Every search platform but Bluesky, which arrives live; none polled yet.
      polling: ['devto', 'github', 'hackernews', 'instagram', 'linkedin', 'news', 'reddit', 'stackoverflow', 'tiktok', 'x', 'youtube'].map((platform) => ({
        platform,
        lastPolledAt: null,
        emptyPolls: 0,
        lastError: null,
        lastErrorAt: null,
      })),
      createdAt: expect.any(String),
    });
    const fetched = await earshot.rest('GET', `/v1/keywords/${created.body.id}`, { key });
    expect(comparableKeyword(fetched.body)).toEqual(comparableKeyword(created.body));
  });

  it('patches with PATCH semantics and answers 409 on a duplicate term', async () => {
    const a = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'alpha', matching: { subreddits: { only: ['r/Rust', 'golang'] } } } });
    expect(a.body.matching.subreddits.only).toEqual(['rust', 'golang']);
    const patched = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, {
      key,
      body: { matching: { subreddits: { excluded: ['r/Spam'] }, repositories: { minStars: 5 } }, context: 'The alpha product' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.matching.subreddits).toEqual({ only: ['rust', 'golang'], excluded: ['spam'] });
    expect(patched.body.matching.repositories).toEqual({ events: ['traction', 'stars', 'growth'], minStars: 5, minWeeklyStars: null });
    expect(patched.body.context).toBe('The alpha product');
    await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'beta' } });
    const clash = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, { key, body: { term: 'Beta' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('duplicate_keyword');
    const bad = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, { key, body: { context: 'x'.repeat(301) } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'context' });
  });
});

const workspace = async () => earshot.createWorkspace();
const createKeyword = async (apiKey: string, body: Record<string, unknown>) => {
  const response = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body });
  expect(response.status).toBe(201);
  return comparableKeyword(response.body);
};
const patchKeyword = async (apiKey: string, id: string, body: unknown) => {
  const response = await earshot.rest('PATCH', `/v1/keywords/${id}`, { key: apiKey, body });
  return response.status === 200 ? { ...response, body: comparableKeyword(response.body) } : response;
};
const getKeyword = async (apiKey: string, id: string) => comparableKeyword((await earshot.rest('GET', `/v1/keywords/${id}`, { key: apiKey })).body);
const listKeywords = async (apiKey: string, query = '') => {
  const response = await earshot.rest('GET', `/v1/keywords${query}`, { key: apiKey });
  return response.status === 200 ? { ...response, body: { ...response.body, data: response.body.data.map(comparableKeyword) } } : response;
};
const graphqlUpdate = 'mutation ($id: ID!, $input: KeywordPatchInput!) { updateKeyword(id: $id, input: $input) { id term muted pausedForBalance pausedForNoise matching { exactPhrase } } }';

describe('keyword terms', () => {
  it('reads a quoted term as an exact phrase, on create and on rename', async () => {
    const { apiKey } = await workspace();
    const quoted = await createKeyword(apiKey, { term: '  "Acme Cloud" ' });
    expect([quoted.term, quoted.matching.exactPhrase]).toEqual(['Acme Cloud', true]);
    const plain = await createKeyword(apiKey, { term: 'Acme Widgets' });
    expect([plain.term, plain.matching.exactPhrase]).toEqual(['Acme Widgets', false]);
    const renamed = await patchKeyword(apiKey, plain.id, { term: '"Acme Gadgets"' });
    expect(renamed.body).toEqual({ ...plain, term: 'Acme Gadgets', matching: { ...plain.matching, exactPhrase: true } });
    const viaGraphQL = await earshot.graphql(graphqlUpdate, { id: quoted.id, input: { term: '"Acme Sky"' } }, apiKey);
    expect(viaGraphQL.body.data.updateKeyword).toMatchObject({ id: quoted.id, term: 'Acme Sky', matching: { exactPhrase: true } });
  });

  it('keeps a quoted term an exact phrase when the same body sends exactPhrase false, on create and on rename alike', async () => {
    const { apiKey } = await workspace();
    const created = await createKeyword(apiKey, { term: '"Acme Rail"', matching: { exactPhrase: false } });
    expect([created.term, created.matching.exactPhrase]).toEqual(['Acme Rail', true]);
    const renamed = await patchKeyword(apiKey, created.id, { term: '"Acme Tram"', matching: { exactPhrase: false } });
    expect([renamed.body.term, renamed.body.matching.exactPhrase]).toEqual(['Acme Tram', true]);
    const plain = await patchKeyword(apiKey, created.id, { term: 'Acme Bus', matching: { exactPhrase: false } });
    expect([plain.body.term, plain.body.matching.exactPhrase]).toEqual(['Acme Bus', false]);
  });

  it('renames a keyword keeping its id and every setting', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, {
      term: 'acme',
      kind: 'competitor',
      context: 'The rocket company',
      platforms: ['reddit', 'github'],
      matching: { requiredTerms: ['rocket'], subreddits: { only: ['space'] } },
      cap: { mentions: 300, per: 'week' },
      comments: { enabled: true, maxPerPost: 7 },
    });
    const renamed = await patchKeyword(apiKey, keyword.id, { term: 'Acme Rockets' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...keyword, term: 'Acme Rockets' });
    expect(await getKeyword(apiKey, keyword.id)).toEqual(renamed.body);
    const recased = await patchKeyword(apiKey, keyword.id, { term: 'ACME ROCKETS' });
    expect(recased.body).toEqual({ ...keyword, term: 'ACME ROCKETS' });
  });

  it('answers 409 duplicate_keyword when the group already tracks the term in any case, on create and rename', async () => {
    const { apiKey } = await workspace();
    const acme = await createKeyword(apiKey, { term: 'Acme' });
    const again = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: '"ACME"' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: { code: 'duplicate_keyword', message: 'The group already tracks "ACME"', requestId: again.headers.get('x-request-id'), field: 'term' },
    });
    const widget = await createKeyword(apiKey, { term: 'widget' });
    const rename = await patchKeyword(apiKey, widget.id, { term: 'aCmE', context: 'not saved' });
    expect(rename.status).toBe(409);
    expect(rename.body.error).toMatchObject({ code: 'duplicate_keyword', message: 'The group already tracks "aCmE"', field: 'term' });
    expect(await getKeyword(apiKey, widget.id)).toEqual(widget);
    const viaGraphQL = await earshot.graphql(graphqlUpdate, { id: widget.id, input: { term: 'ACME' } }, apiKey);
    expect(viaGraphQL.body.errors[0].extensions).toMatchObject({ code: 'duplicate_keyword', field: 'term' });
    const create = 'mutation ($input: CreateKeywordInput!) { createKeyword(input: $input) { id } }';
    const createdTwice = await earshot.graphql(create, { input: { term: 'acme' } }, apiKey);
    expect(createdTwice.body.errors[0].extensions).toMatchObject({ code: 'duplicate_keyword', field: 'term' });
    const group = await earshot.rest('POST', '/v1/groups', { key: apiKey, body: { name: 'Other' } });
    const elsewhere = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'acme', groupId: group.body.id } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(acme.id);
  });
});

describe('keyword PATCH semantics', () => {
  it('leaves omitted fields untouched and replaces sent lists', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, {
      term: 'acme',
      context: 'Acme the company',
      platforms: ['reddit'],
      matching: { requiredTerms: ['cloud', 'api'], excludedTerms: ['job'], excludedAuthors: ['@spam'] },
    });
    const kindOnly = await patchKeyword(apiKey, keyword.id, { kind: 'topic' });
    expect(kindOnly.body).toEqual({ ...keyword, kind: 'topic' });
    const replaced = await patchKeyword(apiKey, keyword.id, { matching: { requiredTerms: ['sdk'] }, platforms: ['github', 'devto'] });
    expect(replaced.body).toEqual({
      ...kindOnly.body,
      platforms: ['github', 'devto'],
      matching: { ...keyword.matching, requiredTerms: ['sdk'] },
    });
    const emptied = await patchKeyword(apiKey, keyword.id, { matching: { requiredTerms: [], excludedTerms: null, excludedAuthors: [] } });
    expect(emptied.body.matching).toEqual({ ...keyword.matching, requiredTerms: [], excludedTerms: [], excludedAuthors: [] });
    const nothing = await patchKeyword(apiKey, keyword.id, {});
    expect(nothing.body).toEqual(emptied.body);
  });

  it('replaces nested repositories fields and each subreddits list on their own; null clears a minimum', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, {
      term: 'acme',
      matching: { repositories: { events: ['new', 'stars'], minStars: 10, minWeeklyStars: 30 }, subreddits: { only: ['one'], excluded: ['two'] } },
    });
    expect(keyword.matching.repositories).toEqual({ events: ['new', 'stars'], minStars: 10, minWeeklyStars: 30 });
    const minStarsCleared = await patchKeyword(apiKey, keyword.id, { matching: { repositories: { minStars: null } } });
    expect(minStarsCleared.body.matching).toEqual({ ...keyword.matching, repositories: { events: ['new', 'stars'], minStars: null, minWeeklyStars: 30 } });
    const eventsEmptied = await patchKeyword(apiKey, keyword.id, { matching: { repositories: { events: [], minWeeklyStars: null } } });
    expect(eventsEmptied.body.matching.repositories).toEqual({ events: [], minStars: null, minWeeklyStars: null });
    const excludedOnly = await patchKeyword(apiKey, keyword.id, { matching: { subreddits: { excluded: ['r/Three'] } } });
    expect(excludedOnly.body.matching.subreddits).toEqual({ only: ['one'], excluded: ['three'] });
    const onlyCleared = await patchKeyword(apiKey, keyword.id, { matching: { subreddits: { only: null } } });
    expect(onlyCleared.body.matching.subreddits).toEqual({ only: [], excluded: ['three'] });
  });

  it('clears cap and context with null, and reads platforms null as every platform and [] as none', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme', context: 'Rockets', cap: { mentions: 500 }, platforms: [] });
    expect([keyword.platforms, keyword.context]).toEqual([[], 'Rockets']);
    expect(keyword.cap).toEqual({ mentions: 200, per: 'month', used: 0, welcome: true, own: 500, ownPer: 'month', resumesAt: null });
    const cleared = await patchKeyword(apiKey, keyword.id, { cap: null, context: null, platforms: null });
    expect(cleared.body).toEqual({
      ...keyword,
      cap: { mentions: 200, per: 'month', used: 0, welcome: true, own: null, ownPer: null, resumesAt: null },
      context: null,
      platforms: null,
    });
    const capPerDay = await patchKeyword(apiKey, keyword.id, { cap: { mentions: 40, per: 'day' }, comments: { enabled: true } });
    expect(capPerDay.body.cap).toMatchObject({ own: 40, ownPer: 'day' });
    expect(capPerDay.body.comments).toEqual({ enabled: true, maxPerPost: 20 });
    const blankContext = await patchKeyword(apiKey, keyword.id, { context: '   ' });
    expect(blankContext.body.context).toBeNull();
  });
});

describe('keyword validation', () => {
  it.each([
    [{ term: 'a' }, 'term'],
    [{ kind: 'person' }, 'kind'],
    [{ platforms: ['reddit', 'myspace'] }, 'platforms.1'],
    [{ matching: { requiredTerms: ['ok', 'ok', 'r'.repeat(81)] } }, 'matching.requiredTerms.2'],
    [{ matching: { excludedAuthors: ['https://news.ycombinator.com/item?id=1'] } }, 'matching.excludedAuthors.0'],
    [{ matching: { repositories: { events: ['forks'] } } }, 'matching.repositories.events.0'],
    [{ matching: { subreddits: { only: ['ok'], blocked: ['x'] } } }, 'matching.subreddits.blocked'],
    [{ cap: { per: 'day' } }, 'cap.mentions'],
    [{ cap: { mentions: 1.5 } }, 'cap.mentions'],
    [{ comments: { maxPerPost: '5' } }, 'comments.maxPerPost'],
    [{ reviewSources: [{ platform: 'trustpilot', id: 'acme.com', countries: ['us'] }] }, 'reviewSources.0.countries'],
    [{ reviewSources: [{ countries: ['us'] }] }, 'reviewSources.0'],
    [{ feeds: [{ link: 'https://acme.com/feed' }] }, 'feeds.0.link'],
    [{ context: 'nul\u0000byte' }, 'context'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j with validation_error naming %s, changing nothing', async (body, field) => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    const response = await patchKeyword(apiKey, keyword.id, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field, requestId: response.headers.get('x-request-id') });
    expect(response.body.error.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
    expect(await getKeyword(apiKey, keyword.id)).toEqual(keyword);
  });

  it('names the field over GraphQL too', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    const response = await earshot.graphql(graphqlUpdate, { id: keyword.id, input: { matching: { requiredTerms: ['r'.repeat(81)] } } }, apiKey);
    expect(response.body.errors[0]).toMatchObject({
      message: 'matching.requiredTerms.0: must be 1 to 80 characters',
      extensions: { code: 'validation_error', field: 'matching.requiredTerms.0' },
    });
  });
});

describe('listing keywords', () => {
  it('pages with limit and nextCursor, oldest first, until nextCursor is null', async () => {
    const { apiKey } = await workspace();
    const created = [];
    for (const term of ['one', 'two', 'three', 'four', 'five']) created.push(await createKeyword(apiKey, { term }));
    const seen: unknown[] = [];
    let cursor: string | null = null;
    const pageSizes: number[] = [];
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page = await listKeywords(apiKey, query);
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['data', 'nextCursor']);
      pageSizes.push(page.body.data.length);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(created);
    const whole = await listKeywords(apiKey);
    expect(whole.body).toEqual({ data: created, nextCursor: null });
    const exact = await earshot.rest('GET', '/v1/keywords?limit=5', { key: apiKey });
    expect(exact.body.nextCursor).toBeNull();

    const viaGraphQL = await earshot.graphql('{ keywords(first: 3) { nodes { id } nextCursor } }', {}, apiKey);
    expect(viaGraphQL.body.data.keywords.nodes).toEqual(created.slice(0, 3).map(({ id }) => ({ id })));
    const next = await earshot.graphql('query ($after: String) { keywords(first: 3, after: $after) { nodes { id } nextCursor } }', {
      after: viaGraphQL.body.data.keywords.nextCursor,
    }, apiKey);
    expect(next.body.data.keywords).toEqual({ nodes: created.slice(3).map(({ id }) => ({ id })), nextCursor: null });
  });

  it('answers invalid_cursor for a cursor it never gave and validation_error for a bad limit', async () => {
    const { apiKey } = await workspace();
    for (const cursor of ['nonsense', Buffer.from('kw_short').toString('base64url'), Buffer.from('grp_00000000000000000000000000').toString('base64url')]) {
      const response = await earshot.rest('GET', `/v1/keywords?cursor=${cursor}`, { key: apiKey });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { code: 'invalid_cursor', message: 'The cursor is not one this API returned', requestId: response.headers.get('x-request-id'), field: 'cursor' },
      });
    }
    for (const limit of ['0', '101', 'ten', '2.5']) {
      const response = await earshot.rest('GET', `/v1/keywords?limit=${limit}`, { key: apiKey });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'limit' });
    }
    for (const limit of ['1', '100']) expect((await earshot.rest('GET', `/v1/keywords?limit=${limit}`, { key: apiKey })).status).toBe(200);
    const viaGraphQL = await earshot.graphql('{ keywords(after: "nonsense") { nextCursor } }', {}, apiKey);
    expect(viaGraphQL.body.errors[0].extensions).toMatchObject({ code: 'invalid_cursor', field: 'cursor' });
  });
});

describe('deleting keywords', () => {
  it('removes the keyword from reads and lists; a second delete is 404', async () => {
    const { apiKey } = await workspace();
    const kept = await createKeyword(apiKey, { term: 'kept' });
    const doomed = await createKeyword(apiKey, { term: 'doomed' });
    const deleted = await earshot.rest('DELETE', `/v1/keywords/${doomed.id}`, { key: apiKey });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const fetched = await earshot.rest('GET', `/v1/keywords/${doomed.id}`, { key: apiKey });
    expect(fetched.status).toBe(404);
    expect(fetched.body.error).toMatchObject({ code: 'not_found', message: 'Keyword not found' });
    expect((await listKeywords(apiKey)).body).toEqual({ data: [kept], nextCursor: null });
    expect((await earshot.rest('DELETE', `/v1/keywords/${doomed.id}`, { key: apiKey })).status).toBe(404);
    expect((await patchKeyword(apiKey, doomed.id, { kind: 'topic' })).status).toBe(404);
    const recreated = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'doomed' } });
    expect(recreated.status).toBe(201);
  });

  it('deletes over GraphQL, returning the id', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    const remove = 'mutation ($id: ID!) { deleteKeyword(id: $id) }';
    expect((await earshot.graphql(remove, { id: keyword.id }, apiKey)).body).toEqual({ data: { deleteKeyword: keyword.id } });
    const again = await earshot.graphql(remove, { id: keyword.id }, apiKey);
    expect(again.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('keyword run state (spec 3.1)', () => {
  const runState = (keyword: Record<string, any>) => ({
    muted: keyword.muted,
    pausedForBalance: keyword.pausedForBalance,
    pausedForNoise: keyword.pausedForNoise,
    pausedForCap: keyword.pausedForCap,
  });
  const running = { muted: false, pausedForBalance: false, pausedForNoise: false, pausedForCap: false };
  const judgedSince = async (workspaceId: string, id: string) => (await findKeyword(earshot.sql, workspaceId, id))!.judgedSince;

  it('mutes and unmutes by hand, showing health paused while muted', async () => {
    const { apiKey } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    const muted = await patchKeyword(apiKey, keyword.id, { muted: true });
    expect(muted.body).toEqual({ ...keyword, muted: true, stats: { ...keyword.stats, health: 'paused' } });
    const unmuted = await patchKeyword(apiKey, keyword.id, { muted: false });
    expect(unmuted.body).toEqual(keyword);
  });

  it('resumes a keyword paused for noise when unmuted, and judges it from then on', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    await pauseKeywordsForNoise(earshot.sql, [keyword.id]);
    expect(runState(await getKeyword(apiKey, keyword.id))).toEqual({ ...running, muted: true, pausedForNoise: true });
    const before = Date.now();
    const unmuted = await patchKeyword(apiKey, keyword.id, { muted: false });
    expect(unmuted.status).toBe(200);
    expect(runState(unmuted.body)).toEqual(running);
    expect((await judgedSince(workspaceId, keyword.id))!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ['requiredTerms', { matching: { requiredTerms: ['cloud'] } }],
    ['excludedTerms', { matching: { excludedTerms: ['jobs'] } }],
    ['platforms', { platforms: ['reddit'] }],
    ['context', { context: 'Acme the cloud company' }],
  ])('resumes a keyword paused for noise when its %s change, and records judgedSince', async (_field, body) => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    expect(await judgedSince(workspaceId, keyword.id)).toBeNull();
    await pauseKeywordsForNoise(earshot.sql, [keyword.id]);
    const before = Date.now();
    const patched = await patchKeyword(apiKey, keyword.id, body);
    expect(runState(patched.body)).toEqual(running);
    expect((await judgedSince(workspaceId, keyword.id))!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ['kind', { kind: 'topic' }],
    ['comments', { comments: { enabled: true } }],
    ['cap', { cap: { mentions: 50 } }],
    ['an unchanged list', { matching: { requiredTerms: [] } }],
  ])('keeps a keyword paused for noise when only its %s change, and records no judgedSince', async (_field, body) => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    await pauseKeywordsForNoise(earshot.sql, [keyword.id]);
    const patched = await patchKeyword(apiKey, keyword.id, body);
    expect(patched.status).toBe(200);
    expect(runState(patched.body)).toEqual({ ...running, muted: true, pausedForNoise: true });
    expect(await judgedSince(workspaceId, keyword.id)).toBeNull();
  });

  it('records judgedSince for other matching rule changes without resuming a noise pause', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    await pauseKeywordsForNoise(earshot.sql, [keyword.id]);
    const patched = await patchKeyword(apiKey, keyword.id, { matching: { caseSensitive: true } });
    expect(runState(patched.body)).toEqual({ ...running, muted: true, pausedForNoise: true });
    expect(await judgedSince(workspaceId, keyword.id)).not.toBeNull();
  });

  it('unmutes a keyword paused for balance while the wallet covers a day', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    await pauseRunningKeywordsForBalance(earshot.sql, [workspaceId]);
    expect(runState(await getKeyword(apiKey, keyword.id))).toEqual({ ...running, muted: true, pausedForBalance: true });
    const unmuted = await patchKeyword(apiKey, keyword.id, { muted: false });
    expect(runState(unmuted.body)).toEqual(running);
  });

  // A mute asked for while paused used to record nothing, so a top-up or a noise resume started the keyword the user had muted.
  it('keeps a keyword muted by hand while it was paused muted through a top-up and a noise resume', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const forBalance = await createKeyword(apiKey, { term: 'acme' });
    const forNoise = await createKeyword(apiKey, { term: 'widget' });
    await pauseKeywordsForNoise(earshot.sql, [forNoise.id]);
    await pauseRunningKeywordsForBalance(earshot.sql, [workspaceId]);
    for (const keyword of [forBalance, forNoise]) {
      const muted = await patchKeyword(apiKey, keyword.id, { muted: true });
      expect(runState(muted.body)).toEqual({ ...running, muted: true });
    }
    expect(await resumeKeywordsPausedForBalance(earshot.sql, workspaceId)).toEqual([]);
    const ruleChange = await patchKeyword(apiKey, forNoise.id, { matching: { excludedTerms: ['jobs'] } });
    expect(runState(ruleChange.body)).toEqual({ ...running, muted: true });
    for (const keyword of [forBalance, forNoise]) expect(runState(await getKeyword(apiKey, keyword.id))).toEqual({ ...running, muted: true });
  });

  it('answers 402 insufficient_balance when unmuting a paused keyword the wallet cannot cover, changing nothing', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const forBalance = await createKeyword(apiKey, { term: 'acme' });
    const forNoise = await createKeyword(apiKey, { term: 'widget' });
    await pauseKeywordsForNoise(earshot.sql, [forNoise.id]);
    await pauseRunningKeywordsForBalance(earshot.sql, [workspaceId]);
    await drainWallet(earshot.sql, workspaceId, forBalance.id);
    expect(runState(await getKeyword(apiKey, forBalance.id))).toEqual({ ...running, muted: true, pausedForBalance: true });
    expect(runState(await getKeyword(apiKey, forNoise.id))).toEqual({ ...running, muted: true, pausedForNoise: true });
    for (const keyword of [forBalance, forNoise]) {
      const before = await getKeyword(apiKey, keyword.id);
      const refused = await patchKeyword(apiKey, keyword.id, { muted: false, kind: 'topic' });
      expect(refused.status).toBe(402);
      expect(refused.body).toEqual({
        error: {
          code: 'insufficient_balance',
          message: 'The wallet cannot cover another day of this keyword; top up first',
          requestId: refused.headers.get('x-request-id'),
        },
      });
      expect(await getKeyword(apiKey, keyword.id)).toEqual(before);
    }
    const viaGraphQL = await earshot.graphql(graphqlUpdate, { id: forBalance.id, input: { muted: false } }, apiKey);
    expect(viaGraphQL.body.errors[0].extensions.code).toBe('insufficient_balance');

    const noiseRuleChange = await patchKeyword(apiKey, forNoise.id, { matching: { excludedTerms: ['jobs'] } });
    expect(noiseRuleChange.status).toBe(200);
    expect(runState(noiseRuleChange.body)).toEqual({ ...running, muted: true, pausedForNoise: true });
    expect(noiseRuleChange.body.matching.excludedTerms).toEqual(['jobs']);
  });

  // A mute takes a pause over, so a mute then an unmute started a keyword the wallet had paused, past the 402 above.
  it('answers 402 insufficient_balance to unmuting a keyword muted by hand when the wallet cannot cover a day', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keyword = await createKeyword(apiKey, { term: 'acme' });
    await pauseRunningKeywordsForBalance(earshot.sql, [workspaceId]);
    await drainWallet(earshot.sql, workspaceId, keyword.id);
    const muted = await patchKeyword(apiKey, keyword.id, { muted: true });
    expect(runState(muted.body)).toEqual({ ...running, muted: true });
    const refused = await patchKeyword(apiKey, keyword.id, { muted: false });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_balance');
    expect(runState(await getKeyword(apiKey, keyword.id))).toEqual({ ...running, muted: true });
  });

  // Found by a parallel probe: each create counted the running keywords before the others committed, so all ran.
  it('starts one of keywords created at once on a wallet covering one more, the others paused for balance', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const first = await createKeyword(apiKey, { term: 'acme' });
    await drainWallet(earshot.sql, workspaceId, first.id, 1);
    const created = await Promise.all(Array.from({ length: 8 }, (_, index) => createKeyword(apiKey, { term: `raced ${index}` })));
    expect(created.filter((keyword) => !keyword.muted)).toHaveLength(1);
    expect(created.filter((keyword) => keyword.pausedForBalance)).toHaveLength(7);
    const wallet = await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey });
    expect(wallet.body).toMatchObject({ activeKeywords: 2, pausedKeywords: 7 });
    expect(wallet.body.nextDayCents).toBeLessThanOrEqual(wallet.body.effectiveCents);
  });

  it('unmutes one of two keywords unmuted at once on a wallet covering one more, answering 402 insufficient_balance to the other', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const keywords = [await createKeyword(apiKey, { term: 'acme' }), await createKeyword(apiKey, { term: 'widget' })];
    await pauseRunningKeywordsForBalance(earshot.sql, [workspaceId]);
    await drainWallet(earshot.sql, workspaceId, keywords[0].id, 1);
    const answers = await Promise.all(keywords.map((keyword) => earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: apiKey, body: { muted: false } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    const wallet = await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey });
    expect(wallet.body).toMatchObject({ activeKeywords: 1, pausedKeywords: 1 });
  });

  it('starts a keyword the wallet cannot cover a day of paused for balance, the others running, and the top-up that covers it starts it', async () => {
    const { apiKey, workspace: { id: workspaceId } } = await workspace();
    const covered = await createKeyword(apiKey, { term: 'acme' });
    await drainWallet(earshot.sql, workspaceId, covered.id);
    const uncovered = await createKeyword(apiKey, { term: 'widget' });
    expect(runState(uncovered)).toEqual({ ...running, muted: true, pausedForBalance: true });
    expect(runState(await getKeyword(apiKey, covered.id))).toEqual(running);
    const wallet = await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey });
    expect(wallet.body).toMatchObject({ status: 'paused', activeKeywords: 1, pausedKeywords: 1 });

    await creditWalletByOperator(earshot.sql, { workspaceId, cents: 2000, at: new Date() });
    expect(runState(await getKeyword(apiKey, uncovered.id))).toEqual(running);
    expect((await eventsOf(earshot.sql, workspaceId)).map(({ name, data }) => [name, (data as { keyword?: { id: string } }).keyword?.id ?? data.keywordsResumed])).toEqual([
      ['keyword.resumed', uncovered.id],
      ['wallet.resumed', 1],
    ]);
  });
});
