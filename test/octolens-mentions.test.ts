import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markClassificationFailed, saveClassification, storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { patiently, startTestEarshot, type TestEarshot, waitersOnLocks } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';
import { expectOctolensError, expectOctolensShape, octolens, octolensFixture } from './octolens-shapes.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let keywords: { acme: { compat: number; id: string }; beta: { compat: number; id: string } };

let sequence = 0;
const post = (text: string, platform: 'reddit' | 'x' = 'reddit', publishedAt = new Date(Date.UTC(2026, 4, 6, 13, 35, 37))): NormalizedPost => ({
  platform,
  externalId: `octo-${++sequence}`,
  url: `https://example.com/${platform}/${sequence}`,
  text,
  publishedAt,
  replyTo: null,
  links: [],
  author: { platformId: `author${sequence}`, name: `Author ${sequence}`, handle: `author${sequence}`, url: `https://example.com/u/${sequence}`, avatarUrl: null, followers: 10 },
});

/** Stores posts matched by keyword ids and gives each mention a score (null: the classifier failed on it, so it stays unscored). */
async function seed(keywordIds: string[], scores: (number | null)[], platform: 'reddit' | 'x' = 'reddit', text = () => `Post ${sequence} about acme and beta`): Promise<string[][]> {
  const posts = scores.map(() => post(text(), platform));
  const rows = await storeMatchedPosts(
    earshot.sql,
    posts.map((item) => ({ post: item, matches: keywordIds.map((keywordId) => ({ keywordId, workspaceId, fuzzy: false })) })),
  );
  const byPost = posts.map((item) => keywordIds.map((keywordId) => rows.find((row) => row.externalId === item.externalId && row.keywordId === keywordId)!.id));
  for (const [i, score] of scores.entries()) {
    for (const id of byPost[i]) {
      if (score === null) await markClassificationFailed(earshot.sql, [id]);
      else await saveClassification(earshot.sql, id, { relevance: score, sentiment: 'neutral', intents: ['question'], automated: false, language: 'en', note: `scored ${score}`, priority: 1 }, new Date());
    }
  }
  return byPost;
}

/** Every mention of the workspace. */
const listAll = async (apiKey = key) => {
  const answer = await patiently(() => octolens(earshot, 'POST', '/mentions', apiKey, { includeAll: true, limit: 100 }));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as any[];
};
const shown = async (sourceId: string) => (await octolens(earshot, 'GET', `/mentions/${sourceId}`, key)).body;

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Mentions');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  const acme = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'acme', platforms: ['reddit', 'twitter'] });
  const beta = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'beta', platforms: ['reddit'] });
  const ids = await earshot.sql<{ id: string; term: string }[]>`select id, term from keywords where workspace_id = ${workspaceId}`;
  keywords = {
    acme: { compat: acme.body.id, id: ids.find((row) => row.term === 'acme')!.id },
    beta: { compat: beta.body.id, id: ids.find((row) => row.term === 'beta')!.id },
  };
});
afterAll(() => earshot?.stop());

describe('a mention\'s title', () => {
  // Octolens's reference: `title` is the post title, null for platforms that have none. It was always null.
  it('is the title of a post that has one, the body then being the text after it, and null for one without', async () => {
    const titled = { ...post('Is acme worth it?\n\nWe compared it with a homegrown script.'), title: 'Is acme worth it?' };
    const headlineOnly = { ...post('Acme open-sources its matcher'), title: 'Acme open-sources its matcher' };
    const untitled = post('acme is great', 'x');
    const rows = await storeMatchedPosts(
      earshot.sql,
      [titled, headlineOnly, untitled].map((item) => ({ post: item, matches: [{ keywordId: keywords.acme.id, workspaceId, fuzzy: false }] })),
    );
    const of = async (item: NormalizedPost) => {
      const { title, body } = await shown(rows.find((row) => row.externalId === item.externalId)!.id);
      return { title, body };
    };
    expect(await of(titled)).toEqual({ title: 'Is acme worth it?', body: 'We compared it with a homegrown script.' });
    expect(await of(headlineOnly)).toEqual({ title: 'Acme open-sources its matcher', body: '' });
    expect(await of(untitled)).toEqual({ title: null, body: 'acme is great' });
    // The REST API's record keeps its text whole and names no title (spec 2.4).
    const record = await earshot.rest('GET', `/v1/mentions/${rows.find((row) => row.externalId === titled.externalId)!.id}`, { key });
    expect(record.body.post).toEqual(expect.objectContaining({ text: 'Is acme worth it?\n\nWe compared it with a homegrown script.' }));
    expect(record.body.post).not.toHaveProperty('title');
  });
});

describe('the mention list', () => {
  it('answers in the recorded shape, one row per keyword a post matched', async () => {
    const [[forAcme, forBeta]] = await seed([keywords.acme.id, keywords.beta.id], [85]);
    const list = await octolens(earshot, 'POST', '/mentions', key, {});
    expectOctolensShape(list, 'list-mentions');
    const rows = list.body.data.filter((row: any) => [forAcme, forBeta].includes(row.sourceId));
    expect(rows.map((row: any) => row.keywords)).toEqual(
      expect.arrayContaining([[{ id: keywords.acme.compat, keyword: 'acme' }], [{ id: keywords.beta.compat, keyword: 'beta' }]]),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      title: null,
      source: 'reddit',
      timestamp: '2026-05-06 13:35:37.000',
      relevance: 'relevant',
      relevanceComment: 'scored 85',
      sentiment: 'Neutral',
      language: 'en',
      tags: ['question'],
      engaged: false,
      isReply: false,
      relevanceScore: 0,
      feedbackRelevant: null,
    });
    expect(rows[0].id).not.toBe(rows[1].id);
  });

  it('buckets relevance: 0 for 70 and up, 1 for 40 to 69, 2 below or unscored; relevant only unless includeAll', async () => {
    const scores = [100, 70, 69, 40, 39, 0, null];
    const seeded = (await seed([keywords.beta.id], scores)).map(([id]) => id);
    const everything = await listAll();
    const table = seeded.map((id) => {
      const row = everything.find((mention) => mention.sourceId === id);
      return [row.relevanceScore, row.relevance];
    });
    expect(table).toEqual([
      [0, 'relevant'],
      [0, 'relevant'],
      [1, 'relevant'],
      [1, 'relevant'],
      [2, 'not_relevant'],
      [2, 'not_relevant'],
      [2, 'not_relevant'],
    ]);
    const relevantOnly = (await octolens(earshot, 'POST', '/mentions', key, { limit: 100 })).body.data.map((row: any) => row.sourceId);
    expect(seeded.filter((id) => relevantOnly.includes(id))).toEqual(seeded.slice(0, 4));
    expect((await octolens(earshot, 'POST', '/mentions', key, { includeAll: false, limit: 100 })).body.data.map((row: any) => row.sourceId)).toEqual(relevantOnly);
  });

  it('shows authorFollowers null where the platform gave no count, the reach no follower filter matches', async () => {
    // Published before the posts `seed` writes, so the newest of the list stays theirs.
    const publishedAt = new Date(Date.UTC(2026, 0, 1));
    const [unknown, none] = await seedMentions(earshot.sql, workspaceId, [
      { keywordId: keywords.beta.id, publishedAt, author: { followers: null }, score: { relevance: 90, sentiment: 'neutral' } },
      { keywordId: keywords.beta.id, publishedAt, author: { followers: 0 }, score: { relevance: 90, sentiment: 'neutral' } },
    ]);
    expect((await shown(unknown)).authorFollowers).toBeNull();
    expect((await shown(none)).authorFollowers).toBe(0);
    const listed = (await octolens(earshot, 'POST', '/mentions', key, { limit: 100, filters: { keyword: [keywords.beta.compat] } })).body.data;
    expect(listed.find((row: any) => row.sourceId === unknown).authorFollowers).toBeNull();
    const exported = await octolens(earshot, 'POST', '/mentions/export', key, { format: 'csv', filters: { keyword: [keywords.beta.compat] } });
    const cells = parse(exported.body, { columns: true }) as Record<string, string>[];
    expect(cells.find((row) => row.sourceId === unknown)?.authorFollowers).toBe('');
    const reaching = (await octolens(earshot, 'POST', '/mentions', key, { limit: 100, filters: { minXFollowers: 0 } })).body.data.map((row: any) => row.sourceId);
    expect(reaching).toContain(none);
    expect(reaching).not.toContain(unknown);
  });

  /** The relevance a mention shows through /v1, GraphQL and the CSV export, and whether `minRelevance=100` finds it. */
  const scoreEverywhere = async (id: string) => {
    const rest = (await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.classification;
    const graphql = await earshot.graphql(
      'query ($id: ID!) { mention(id: $id) { classification { relevance feedback { relevant sentiment original { relevance relevant sentiment } } } } }',
      { id },
      key,
    );
    const rows: Record<string, string>[] = [];
    for (const relevant of [true, false]) {
      const exported = await earshot.rest('GET', `/v1/mentions/export.csv?keywordId=${keywords.beta.id}&relevant=${relevant}`, { key });
      rows.push(...(parse(exported.body as string, { columns: true }) as Record<string, string>[]));
    }
    const listed = await earshot.rest('GET', `/v1/mentions?keywordId=${keywords.beta.id}&minRelevance=100&limit=100`, { key });
    return {
      rest: { relevance: rest.relevance, feedback: rest.feedback },
      graphql: graphql.body.data.mention.classification,
      csv: rows.find((row) => row.id === id)?.relevance,
      atLeast100: listed.body.data.some((row: { id: string }) => row.id === id),
    };
  };

  it('writes relevance: 0 or 1 set the score to 100, 2 marks not relevant, 3 restores the classifier’s verdict', async () => {
    const [[medium], [low]] = await seed([keywords.beta.id], [55, 20]);
    const write = async (id: string, relevance: number) => {
      const response = await octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'relevance', relevance, postId: 1, timestamp: '2026-05-06 13:35:37.000' });
      expectOctolensShape(response, 'update-mention');
      const row = await shown(id);
      return [row.relevanceScore, row.relevance, row.feedbackRelevant];
    };
    expect(await write(medium, 0)).toEqual([0, 'relevant', 1]);
    expect(await write(medium, 2)).toEqual([2, 'not_relevant', 0]);
    expect(await write(medium, 1)).toEqual([0, 'relevant', 1]);
    expect(await write(medium, 3)).toEqual([1, 'relevant', null]);
    expect(await write(low, 1)).toEqual([0, 'relevant', 1]);
    expect((await octolens(earshot, 'POST', '/mentions', key, { limit: 100 })).body.data.map((row: any) => row.sourceId)).toContain(low);
    expect(await scoreEverywhere(low)).toEqual({
      rest: { relevance: 100, feedback: { relevant: true, sentiment: null, original: { relevance: 20, relevant: false, sentiment: 'neutral' } } },
      graphql: { relevance: 100, feedback: { relevant: true, sentiment: null, original: { relevance: 20, relevant: false, sentiment: 'neutral' } } },
      csv: '100',
      atLeast100: true,
    });
    expect(await write(low, 3)).toEqual([2, 'not_relevant', null]);
    expect(await scoreEverywhere(low)).toEqual({ rest: { relevance: 20, feedback: null }, graphql: { relevance: 20, feedback: null }, csv: '20', atLeast100: false });
    expect(await write(medium, 0)).toEqual([0, 'relevant', 1]);
    expect(await write(medium, 2)).toEqual([2, 'not_relevant', 0]);
    expect((await scoreEverywhere(medium)).rest).toEqual({
      relevance: 55,
      feedback: { relevant: false, sentiment: null, original: { relevance: 55, relevant: true, sentiment: 'neutral' } },
    });
    // A /v1 verdict gives only `relevant`: it keeps the classifier's score in view, and replaces a compatibility write's 100.
    await write(low, 0);
    expect((await earshot.rest('PATCH', `/v1/mentions/${low}`, { key, body: { relevant: true } })).status).toBe(200);
    expect((await scoreEverywhere(low)).rest).toEqual({
      relevance: 20,
      feedback: { relevant: true, sentiment: null, original: { relevance: 20, relevant: false, sentiment: 'neutral' } },
    });
    expect(await shown(low)).toMatchObject({ relevanceScore: 0, feedbackRelevant: 1 });
    expectOctolensError(await octolens(earshot, 'PATCH', `/mentions/${low}`, key, { action: 'relevance', relevance: 4 }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['relevance'], message: expect.any(String) }],
    });
    const [[unscored]] = await seed([keywords.beta.id], [null]);
    expectOctolensError(await octolens(earshot, 'PATCH', `/mentions/${unscored}`, key, { action: 'relevance', relevance: 0 }), 409, 'CLASSIFICATION_PENDING');
  });

  // Found by a parallel probe: flips sent at once read the same state and wrote the same flip, so two flips left
  // the mention done. Here both flips are held on the mention's row until each has read it.
  it('flips engaged once per request when flips are sent at once', async () => {
    const [[id]] = await seed([keywords.acme.id], [90]);
    const { flips } = await earshot.sql.begin(async (tx) => {
      await tx`select id from mentions where id = ${id} for update`;
      const flips = Promise.all([1, 2].map(() => octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'engage' })));
      await waitersOnLocks(earshot.sql, 2);
      // Handed out in an object: a promise returned from the transaction would be awaited before it commits.
      return { flips };
    });
    expect((await flips).map((flip) => flip.status)).toEqual([200, 200]);
    expect((await shown(id)).engaged).toBe(false);
  });

  it('flips engaged (a mention marked done), corrects the sentiment, and shows one mention in the recorded shape', async () => {
    const [[id]] = await seed([keywords.acme.id], [90]);
    expect((await octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'engage', postId: 0, timestamp: 'x' })).body).toEqual({ ok: true });
    expect((await shown(id)).engaged).toBe(true);
    expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.status).toBe('done');
    await octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'engage' });
    expect((await shown(id)).engaged).toBe(false);
    await octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'sentiment', sentimentLabel: 'Negative' });
    const mention = await octolens(earshot, 'GET', `/mentions/${id}`, key);
    expectOctolensShape(mention, 'get-mention');
    expect(mention.body).toMatchObject({ sourceId: id, sentiment: 'Negative', keywordId: keywords.acme.compat });
    expectOctolensError(await octolens(earshot, 'GET', '/mentions/mm_nope', key), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'PATCH', '/mentions/mm_nope', key, { action: 'engage' }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'PATCH', `/mentions/${id}`, key, { action: 'bookmark' }), 400, 'VALIDATION_ERROR', { details: expect.any(Array) });
    const stranger = await earshot.createWorkspace('Stranger');
    expectOctolensError(await octolens(earshot, 'GET', `/mentions/${id}`, stranger.apiKey), 404, 'NOT_FOUND');
  });

  it('takes the integer id the list gave a mention wherever it takes the sourceId, in this workspace only', async () => {
    const [[id]] = await seed([keywords.acme.id], [90]);
    const listed = (await listAll()).find((mention) => mention.sourceId === id);
    expect(listed.id).toEqual(expect.any(Number));
    const byNumber = await octolens(earshot, 'GET', `/mentions/${listed.id}`, key);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toMatchObject({ id: listed.id, sourceId: id });
    expect((await octolens(earshot, 'PATCH', `/mentions/${listed.id}`, key, { action: 'engage' })).body).toEqual({ ok: true });
    await octolens(earshot, 'PATCH', `/mentions/${listed.id}`, key, { action: 'sentiment', sentimentLabel: 'Positive' });
    await octolens(earshot, 'PATCH', `/mentions/${listed.id}`, key, { action: 'relevance', relevance: 2 });
    expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body).toMatchObject({ status: 'done', relevant: false, classification: { sentiment: 'positive' } });
    expect((await octolens(earshot, 'POST', '/feedback', key, { sourceId: String(listed.id), feedbackType: 'RELEVANT' })).status).toBe(200);
    expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.relevant).toBe(true);
    expect((await octolens(earshot, 'DELETE', '/feedback', key, { sourceId: String(listed.id) })).body).toEqual({ success: true, removed: true });
    expectOctolensError(await octolens(earshot, 'GET', '/mentions/999999999', key), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'GET', '/mentions/0', key), 404, 'NOT_FOUND');
    const stranger = await earshot.createWorkspace('Numbers stranger');
    expectOctolensError(await octolens(earshot, 'GET', `/mentions/${listed.id}`, stranger.apiKey), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'PATCH', `/mentions/${listed.id}`, stranger.apiKey, { action: 'engage' }), 404, 'NOT_FOUND');
  });

  it('pages 20 by default and 100 at most, following pagination.nextCursor', async () => {
    const other = await earshot.createWorkspace('Pages');
    const gamma = await octolens(earshot, 'POST', '/keywords', other.apiKey, { keyword: 'gamma' });
    const [{ id: gammaId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${other.workspace.id}`;
    const rows = await storeMatchedPosts(earshot.sql, Array.from({ length: 25 }, () => ({ post: post('gamma'), matches: [{ keywordId: gammaId, workspaceId: other.workspace.id, fuzzy: false }] })));
    await markClassificationFailed(earshot.sql, rows.map((row) => row.id));
    const first = await octolens(earshot, 'POST', '/mentions', other.apiKey, { includeAll: true });
    expect(first.body.data).toHaveLength(20);
    const second = await octolens(earshot, 'POST', '/mentions', other.apiKey, { includeAll: true, cursor: first.body.pagination.nextCursor });
    expect(second.body.data).toHaveLength(5);
    expect(second.body.pagination.nextCursor).toBeNull();
    expect(new Set([...first.body.data, ...second.body.data].map((row: any) => row.sourceId)).size).toBe(25);
    expect((await octolens(earshot, 'POST', '/mentions', other.apiKey, { includeAll: true, limit: 100 })).body.data).toHaveLength(25);
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', other.apiKey, { limit: 101 }), 400, 'VALIDATION_ERROR', { details: expect.any(Array) });
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', other.apiKey, { cursor: 'not-ours' }), 400, 'VALIDATION_ERROR', { details: expect.any(Array) });
    expect((await octolens(earshot, 'POST', '/mentions', other.apiKey, { includeAll: true, filters: { keyword: [String(gamma.body.id)] } })).body.data).toHaveLength(20);
  });

  // Octolens returns posts "sorted by timestamp (newest first)"; a look-back stores a month of posts at one match time.
  it('lists and exports newest post first by timestamp, whatever order they were matched in, across pages', async () => {
    const other = await earshot.createWorkspace('Timeline');
    await octolens(earshot, 'POST', '/keywords', other.apiKey, { keyword: 'epsilon' });
    const [{ id: epsilonId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${other.workspace.id}`;
    const day = (n: number) => new Date(Date.UTC(2026, 4, n, 12));
    const store = (days: number[]) =>
      storeMatchedPosts(earshot.sql, days.map((n) => ({ post: post(`epsilon ${n}`, 'reddit', day(n)), matches: [{ keywordId: epsilonId, workspaceId: other.workspace.id, fuzzy: false }] })));
    const lookBack = await store([12, 15, 11, 14, 13]);
    const later = await store([10]);
    await markClassificationFailed(earshot.sql, [...lookBack, ...later].map((row) => row.id));
    const expected = ['2026-05-15', '2026-05-14', '2026-05-13', '2026-05-12', '2026-05-11', '2026-05-10'].map((date) => `${date} 12:00:00.000`);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await octolens(earshot, 'POST', '/mentions', other.apiKey, { includeAll: true, limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.data.map((row: any) => row.timestamp));
      cursor = page.body.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    const exported = await octolens(earshot, 'POST', '/mentions/export', other.apiKey, { includeAll: true });
    expect(exported.body.data.map((row: any) => row.timestamp)).toEqual(expected);
  });

  it('filters by source (and !source) and by keyword ids', async () => {
    const [[onX]] = await seed([keywords.acme.id], [80], 'x');
    const sources = async (filters: object) =>
      new Set((await octolens(earshot, 'POST', '/mentions', key, { includeAll: true, limit: 100, filters })).body.data.map((row: any) => row.source));
    expect(await sources({ source: ['twitter'] })).toEqual(new Set(['twitter']));
    expect(await sources({ '!source': ['twitter'] })).toEqual(new Set(['reddit']));
    expect(await sources({ source: ['twitter', 'reddit'], '!source': ['reddit'] })).toEqual(new Set(['twitter']));
    expect(await sources({ '!source': ['twitter', 'reddit'] })).toEqual(new Set());
    expect(await sources({ source: ['linkedin'] })).toEqual(new Set());
    const byKeyword = (await octolens(earshot, 'POST', '/mentions', key, { includeAll: true, limit: 100, filters: { keyword: [keywords.acme.compat] } })).body.data;
    expect(byKeyword.length).toBeGreaterThan(0);
    expect(byKeyword.every((row: any) => row.keywordId === keywords.acme.compat)).toBe(true);
    expect(byKeyword.map((row: any) => row.sourceId)).toContain(onX);
    expect((await octolens(earshot, 'POST', '/mentions', key, { includeAll: true, filters: { keyword: [999999] } })).body.data).toEqual([]);
  });

  it('takes every other Octolens filter as the mention list means it, on the list and the export; bookmarked is 501 FEATURE_DISABLED and a view that is not there 404', async () => {
    const own = await earshot.createWorkspace('Every filter');
    await octolens(earshot, 'POST', '/keywords', own.apiKey, { keyword: 'omega', platforms: ['reddit', 'twitter'] });
    const sigma = (await octolens(earshot, 'POST', '/keywords', own.apiKey, { keyword: 'sigma' })).body.id as number;
    const ids = await earshot.sql<{ id: string; term: string }[]>`select id, term from keywords where workspace_id = ${own.workspace.id}`;
    const [omegaId, sigmaId] = ['omega', 'sigma'].map((term) => ids.find((row) => row.term === term)!.id);
    const day = (date: string) => new Date(`${date}T12:00:00Z`);
    const [a, b, c, d, e] = await seedMentions(earshot.sql, own.workspace.id, [
      { keywordId: omegaId, platform: 'reddit', publishedAt: day('2026-01-10'), author: { followers: 5000 }, score: { relevance: 90, sentiment: 'positive', intents: ['praise'], language: 'en' } },
      {
        keywordId: omegaId,
        platform: 'x',
        publishedAt: day('2026-01-15'),
        replyTo: 'https://x.com/someone/status/1',
        author: { followers: 50 },
        score: { relevance: 55, sentiment: 'negative', intents: ['complaint'], language: 'de' },
      },
      {
        keywordId: sigmaId,
        platform: 'reddit',
        publishedAt: day('2026-01-20'),
        author: { followers: null },
        score: { relevance: 20, sentiment: 'neutral', intents: ['question'], language: 'fr' },
        triage: { status: 'done' },
      },
      // A verdict counts as a score of 100, and a corrected sentiment as corrected.
      {
        keywordId: sigmaId,
        platform: 'hackernews',
        publishedAt: day('2026-01-25'),
        score: { relevance: 10, sentiment: 'neutral', language: null },
        verdict: { relevant: true, sentiment: 'negative' },
      },
      { keywordId: sigmaId, platform: 'reddit', publishedAt: day('2026-02-01') },
    ]);
    const listed = async (filters: object, body: object = { includeAll: true }) => {
      const answer = await octolens(earshot, 'POST', '/mentions', own.apiKey, { limit: 100, filters, ...body });
      expect(answer.status).toBe(200);
      return answer.body.data.map((row: any) => row.sourceId).sort();
    };
    const table: [object, string[]][] = [
      [{}, [a, b, c, d, e]],
      [{ '!source': ['twitter', 'hackernews'] }, [a, c, e]],
      [{ keyword: [sigma] }, [c, d, e]],
      [{ '!keyword': [String(sigma)] }, [a, b]],
      [{ sentiment: ['positive'] }, [a]],
      [{ sentiment: ['Negative'] }, [b, d]],
      [{ '!sentiment': ['neutral'] }, [a, b, d, e]],
      [{ language: ['de'] }, [b]],
      [{ language: ['en'] }, [a]],
      [{ '!language': ['en', 'de'] }, [c, d, e]],
      [{ tag: ['complaint', 'praise'] }, [a, b]],
      [{ tag: ['pricing'] }, []],
      [{ '!tag': ['praise', 'question'] }, [b, d, e]],
      [{ relevance: [0] }, [a, d]],
      [{ relevance: ['1'] }, [b]],
      [{ relevance: [2] }, [c, e]],
      [{ '!relevance': [2] }, [a, b, d]],
      [{ relevance: [0, 2], '!relevance': [0] }, [c, e]],
      [{ postType: ['reply'] }, [b]],
      [{ '!postType': ['reply'] }, [a, c, d, e]],
      [{ engaged: true }, [c]],
      [{ engaged: false }, [a, b, d, e]],
      [{ minXFollowers: 101 }, [a]],
      [{ maxXFollowers: 100 }, [b, d, e]],
      // Octolens's own example bound, 2^52 - 1: past every reach, unknown reach still left out.
      [{ maxXFollowers: 4503599627370495 }, [a, b, d, e]],
      [{ minXFollowers: 4503599627370495 }, []],
      [{ startDate: '2026-01-15T00:00:00Z' }, [b, c, d, e]],
      [{ endDate: '2026-01-15' }, [a, b]],
      [{ startDate: '2026-01-15', endDate: '2026-01-20T23:00:00+02:00' }, [b, c]],
      [{ source: ['reddit'], sentiment: ['neutral'] }, [c]],
      // Advanced filters: groups of one-key conditions, each joined by its operator, the groups by the top one.
      [{ operator: 'AND', groups: [{ operator: 'OR', conditions: [{ source: ['twitter'] }, { sentiment: ['positive'] }] }] }, [a, b]],
      [
        {
          operator: 'OR',
          groups: [
            { operator: 'AND', conditions: [{ source: ['reddit'] }, { engaged: true }] },
            { operator: 'AND', conditions: [{ relevance: [1] }] },
          ],
        },
        [b, c],
      ],
      [{ groups: [{ operator: 'or', conditions: [{ keyword: [sigma] }, { tag: ['praise'] }] }], endDate: '2026-01-20' }, [a, c]],
      [{ operator: 'OR', groups: [{ operator: 'AND', conditions: [{ sentiment: ['positive'] }, { sentiment: ['negative'] }] }] }, []],
    ];
    for (const [filters, expected] of table) expect({ filters, ids: await listed(filters) }).toEqual({ filters, ids: [...expected].sort() });
    // Relevant only unless includeAll, on top of the filters.
    expect(await listed({}, {})).toEqual([a, b, d].sort());
    expect(await listed({ relevance: [2] }, {})).toEqual([]);
    expect(await listed({ groups: [{ operator: 'OR', conditions: [{ source: ['reddit'] }, { source: ['hackernews'] }] }] }, {})).toEqual([a, d].sort());

    const exported = await octolens(earshot, 'POST', '/mentions/export', own.apiKey, { includeAll: true, filters: { sentiment: ['negative'], '!source': ['hackernews'] } });
    expect(exported.body.data.map((row: any) => row.sourceId)).toEqual([b]);
    const exportedByGroups = await octolens(earshot, 'POST', '/mentions/export', own.apiKey, {
      includeAll: true,
      filters: { operator: 'AND', groups: [{ operator: 'OR', conditions: [{ language: ['de'] }, { language: ['fr'] }] }] },
    });
    expect(exportedByGroups.body.data.map((row: any) => row.sourceId)).toEqual([c, b]);

    for (const [filters, path] of [
      [{ sentiment: ['happy'] }, ['filters', 'sentiment', '0']],
      [{ language: ['english'] }, ['filters', 'language', '0']],
      [{ relevance: [3] }, ['filters', 'relevance', '0']],
      [{ startDate: 'yesterday' }, ['filters', 'startDate']],
      [{ postType: ['thread'] }, ['filters', 'postType', '0']],
      [{ minXFollowers: -1 }, ['filters', 'minXFollowers']],
      [{ groups: [{ operator: 'XOR', conditions: [{ source: ['reddit'] }] }] }, ['filters', 'groups', '0', 'operator']],
      [{ groups: [{ operator: 'OR', conditions: [{ sentiment: ['happy'] }] }] }, ['filters', 'groups', '0', 'conditions', '0', 'sentiment', '0']],
      [{ groups: [{ operator: 'OR', conditions: Array.from({ length: 51 }, () => ({ source: ['reddit'] })) }] }, ['filters', 'groups']],
    ] as const) {
      expectOctolensError(await octolens(earshot, 'POST', '/mentions', own.apiKey, { filters }), 400, 'VALIDATION_ERROR', { details: [{ path, message: expect.any(String) }] });
    }
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', own.apiKey, { view: 3 }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', own.apiKey, { filters: { bookmarked: false } }), 501, 'FEATURE_DISABLED');
    const bookmarkedInGroup = { groups: [{ operator: 'OR', conditions: [{ bookmarked: true }] }] };
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', own.apiKey, { filters: bookmarkedInGroup }), 501, 'FEATURE_DISABLED');
    // Engagement counters are not collected: asking for them, or filtering on them, is a feature Earshot does not have.
    for (const [path, body] of [
      ['/mentions', { includeEngagementMetrics: true }],
      ['/mentions/export', { includeEngagementMetrics: true }],
      ['/mentions', { filters: { engagement: [{ source: 'twitter', metric: 'likes', value: 100 }] } }],
      ['/mentions', { filters: { groups: [{ operator: 'AND', conditions: [{ engagement: { source: 'twitter', metric: 'likes', operator: '>=', value: 5 } }] }] } }],
    ] as const) {
      expectOctolensError(await octolens(earshot, 'POST', path, own.apiKey, body), 501, 'FEATURE_DISABLED');
    }
    expect((await octolens(earshot, 'POST', '/mentions', own.apiKey, { includeEngagementMetrics: false })).status).toBe(200);
    expectOctolensError(await octolens(earshot, 'GET', `/mentions/${a}?includeEngagementMetrics=true`, own.apiKey), 501, 'FEATURE_DISABLED');
    expect((await octolens(earshot, 'GET', `/mentions/${a}?includeEngagementMetrics=false`, own.apiKey)).status).toBe(200);
  });
});

describe('export, feedback and read keys', () => {
  it('exports in the recorded shape with X-Total-Count, and takes no author', async () => {
    const exported = await octolens(earshot, 'POST', '/mentions/export', key, octolensFixture('export-mentions').request.body);
    expectOctolensShape(exported, 'export-mentions');
    expect(exported.body.total).toBe(exported.body.data.length);
    expect(exported.headers.get('x-total-count')).toBe(String(exported.body.total));
    expect(exported.body.data.every((row: any) => row.relevance === 'relevant')).toBe(true);
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', key, { author: 'jane' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['author'], message: expect.stringContaining('unknown field') }],
    });
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', key, { format: 'xml' }), 400, 'VALIDATION_ERROR', { details: expect.any(Array) });
  });

  it('exports as CSV with format csv: Octolens\'s 15 columns, a row per mention the JSON export holds', async () => {
    const asJson = await octolens(earshot, 'POST', '/mentions/export', key, {});
    const asCsv = await octolens(earshot, 'POST', '/mentions/export', key, { format: 'csv' });
    expect(asCsv.status).toBe(200);
    expect(asCsv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(asCsv.headers.get('x-total-count')).toBe(String(asJson.body.total));
    const rows = parse(asCsv.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual(['id', 'sourceId', 'timestamp', 'source', 'url', 'title', 'body', 'author', 'authorFollowers', 'language', 'keywords', 'tags', 'relevance', 'sentiment', 'engaged']);
    expect(rows.map((row) => row.sourceId)).toEqual(asJson.body.data.map((mention: { sourceId: string }) => mention.sourceId));
    const first = asJson.body.data[0];
    expect(rows[0]).toMatchObject({
      id: String(first.id),
      body: first.body ?? '',
      keywords: first.keywords.map((keyword: { keyword: string }) => keyword.keyword).join(', '),
      relevance: first.relevance,
      engaged: String(first.engaged),
    });
  });

  it("takes the list body as it is, limit capping the rows and cursor starting after a list page", async () => {
    await seed([keywords.acme.id], [80, 80, 80, 80]);
    const body = { includeAll: true, filters: { keyword: [keywords.acme.compat] } };
    const all = (await octolens(earshot, 'POST', '/mentions/export', key, body)).body.data.map((row: any) => row.sourceId);
    expect(all.length).toBeGreaterThan(3);
    const capped = await octolens(earshot, 'POST', '/mentions/export', key, { ...body, limit: 2 });
    expect(capped.status).toBe(200);
    expect(capped.body).toMatchObject({ total: 2 });
    expect(capped.headers.get('x-total-count')).toBe('2');
    expect(capped.body.data.map((row: any) => row.sourceId)).toEqual(all.slice(0, 2));
    const page = await octolens(earshot, 'POST', '/mentions', key, { ...body, limit: 1 });
    const rest = await octolens(earshot, 'POST', '/mentions/export', key, { ...body, limit: 2, cursor: page.body.pagination.nextCursor });
    expect(rest.body.data.map((row: any) => row.sourceId)).toEqual(all.slice(1, 3));
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', key, { limit: 0 }), 400, 'VALIDATION_ERROR', { details: [{ path: ['limit'], message: expect.any(String) }] });
    expectOctolensError(await octolens(earshot, 'POST', '/mentions/export', key, { cursor: 'nonsense' }), 400, 'VALIDATION_ERROR', { details: [{ path: ['cursor'], message: expect.any(String) }] });
  });

  it('exports at most 5,000 mentions, the newest', async () => {
    const big = await earshot.createWorkspace('Big');
    await octolens(earshot, 'POST', '/keywords', big.apiKey, { keyword: 'delta' });
    const [{ id: deltaId }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${big.workspace.id}`;
    // One author for them all: 5,001 authors and people would cost the storing twice what the posts do, and prove nothing here.
    const byOneAuthor = () => {
      const written = post('delta');
      return { ...written, author: { ...written.author, platformId: 'prolific', handle: 'prolific' } };
    };
    const rows = await storeMatchedPosts(earshot.sql, Array.from({ length: 5_001 }, () => ({ post: byOneAuthor(), matches: [{ keywordId: deltaId, workspaceId: big.workspace.id, fuzzy: false }] })));
    await markClassificationFailed(earshot.sql, rows.map((row) => row.id));
    // The route's full selection of 5,000 rows is the heaviest request there is; the cap is the subgraph's, so it is asked for ids alone.
    const exported = await earshot.graphql('{ compatMentionExport(filter: { includeAll: true }) { id } }', {}, big.apiKey);
    expect(exported.body.data.compatMentionExport).toHaveLength(5_000);
    const newest = (await octolens(earshot, 'POST', '/mentions', big.apiKey, { includeAll: true, limit: 1 })).body.data[0].sourceId;
    expect(exported.body.data.compatMentionExport[0].id).toBe(newest);
  }, 120_000);

  it('records feedback in the recorded shape and withdraws it', async () => {
    const [[id], [unscored]] = await seed([keywords.acme.id], [30, null]);
    const fixture = octolensFixture('submit-feedback');
    const submitted = await octolens(earshot, 'POST', '/feedback', key, { ...(fixture.request.body as object), sourceId: id, feedbackReason: 'exactly our product' });
    expectOctolensShape(submitted, 'submit-feedback');
    expect(submitted.body).toMatchObject({
      sourceId: id,
      organizationId: workspaceId,
      keywordId: keywords.acme.compat,
      postId: (await shown(id)).id,
      source: 'reddit',
      feedbackType: 'RELEVANT',
      feedbackReason: 'exactly our product',
      feedbackSource: 'API',
    });
    expect(await shown(id)).toMatchObject({ relevance: 'relevant', relevanceScore: 0, feedbackRelevant: 1 });
    const again = await octolens(earshot, 'POST', '/feedback', key, { sourceId: id, feedbackType: 'NOT_RELEVANT' });
    expect(again.body).toMatchObject({ id: submitted.body.id, feedbackType: 'NOT_RELEVANT', feedbackReason: null });
    const removed = await octolens(earshot, 'DELETE', '/feedback', key, { sourceId: id, timestamp: '2026-05-06 13:35:37.000' });
    expectOctolensShape(removed, 'remove-feedback');
    expect(removed.body).toEqual({ success: true, removed: true });
    expect(await shown(id)).toMatchObject({ relevance: 'not_relevant', relevanceScore: 2, feedbackRelevant: null });
    expect((await octolens(earshot, 'DELETE', '/feedback', key, { sourceId: id })).body).toEqual({ success: true, removed: false });
    expectOctolensError(await octolens(earshot, 'POST', '/feedback', key, { sourceId: unscored, feedbackType: 'RELEVANT' }), 409, 'CLASSIFICATION_PENDING');
    expectOctolensError(await octolens(earshot, 'POST', '/feedback', key, { sourceId: 'mm_nope', feedbackType: 'RELEVANT' }), 404, 'NOT_FOUND');
  });

  it('lets a read key list and export (both POSTs) but not write', async () => {
    const reader = (await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'reader', scope: 'read' } })).body.key;
    const listed = await octolens(earshot, 'POST', '/mentions', reader, { includeAll: true });
    expect(listed.status).toBe(200);
    expect((await octolens(earshot, 'POST', '/mentions/export', reader, {})).status).toBe(200);
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', reader, { limit: 0 }), 400, 'VALIDATION_ERROR', { details: expect.any(Array) });
    const id = listed.body.data[0].sourceId;
    expectOctolensError(await octolens(earshot, 'PATCH', `/mentions/${id}`, reader, { action: 'engage' }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'POST', '/feedback', reader, { sourceId: id, feedbackType: 'RELEVANT' }), 403, 'FORBIDDEN');
    expectOctolensError(await octolens(earshot, 'POST', '/filters/global/add', reader, { list: 'negativeKeywords', values: ['x'] }), 403, 'FORBIDDEN');
  });
});

/**
 * A keyword made through the compatibility API whose matches make `outage`
 * a term to exclude: six low-scored posts hold it, three high-scored do not.
 */
async function keywordSuggestingOutage(term: string) {
  const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: term, platforms: ['reddit', 'twitter'] });
  const [{ id }] = await earshot.sql<{ id: string }[]>`select id from keywords where workspace_id = ${workspaceId} and term = ${term}`;
  await seed([id], [10, 10, 10, 10, 10, 10], 'reddit', () => `${term} outage lorem${sequence}`);
  await seed([id], [90, 90, 90], 'reddit', () => `${term} release notes ipsum${sequence}`);
  return { created, id };
}

describe('keyword suggestions', () => {
  it('lists a measured suggestion with an integer id and applies it once; a modified value replaces its values', async () => {
    const { created: zeta } = await keywordSuggestingOutage('zeta');
    const listed = await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${zeta.body.id}`, key);
    expectOctolensShape(listed, 'list-keyword-suggestions');
    const outage = listed.body.suggestions.find((suggestion: any) => suggestion.type === 'add_exclude_words');
    expect(outage).toMatchObject({ keywordId: zeta.body.id, organizationId: workspaceId, value: 'outage', status: 'pending', respondedAt: null, impactScore: 1 });
    expect((await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${zeta.body.id}`, key)).body.suggestions.map((s: any) => s.id)).toEqual(
      listed.body.suggestions.map((s: any) => s.id),
    );
    const accepted = await octolens(earshot, 'POST', '/keywords/suggestions', key, { suggestionId: outage.id, modifiedValue: 'outage, downtime' });
    expectOctolensShape(accepted, 'accept-keyword-suggestion');
    expect(accepted.body).toEqual({ success: true, appliedChanges: { excludeWords: 'outage, downtime' } });
    const after = await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${zeta.body.id}`, key);
    expect(after.body.keyword.excludeWords).toBe('outage, downtime');
    expect(after.body.suggestions.map((suggestion: any) => suggestion.value)).not.toContain('outage');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords/suggestions', key, { suggestionId: outage.id }), 404, 'NOT_FOUND');
  });

  it('takes withVolume: false for counts by keyword, true for the list with volumes (narrowed by keywordId)', async () => {
    const { created: iota } = await keywordSuggestingOutage('iota');
    const listed = (await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${iota.body.id}`, key)).body.suggestions;
    expect(listed.length).toBeGreaterThan(0);

    const counts = await octolens(earshot, 'GET', '/keywords/suggestions?withVolume=false', key);
    expect(counts.status).toBe(200);
    expect(counts.body).toContainEqual({ keywordId: iota.body.id, count: listed.length });
    const everyOne = (await octolens(earshot, 'GET', '/keywords/suggestions?withVolume=true', key)).body;
    expect(counts.body.reduce((sum: number, row: { count: number }) => sum + row.count, 0)).toBe(everyOne.totalSuggestionCount);
    expect(counts.body.every((row: { count: number }) => row.count > 0)).toBe(true);

    const narrowed = await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${iota.body.id}&withVolume=true`, key);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body).toMatchObject({ keywords: [{ id: iota.body.id, keyword: 'iota', volume: expect.any(Number) }], totalSuggestionCount: listed.length, nextCursor: null });
    expect(narrowed.body.suggestions.map((s: any) => s.id).sort()).toEqual(listed.map((s: any) => s.id).sort());
    expectOctolensError(await octolens(earshot, 'GET', '/keywords/suggestions?withVolume=yes', key), 400, 'VALIDATION_ERROR', { details: [{ path: ['withVolume'], message: expect.any(String) }] });
  });

  it('pages the list with volumes: 25 by default, limit up to 100, nextCursor passed back as cursor', async () => {
    await keywordSuggestingOutage('kappa');
    await keywordSuggestingOutage('lambda');
    const whole = (await octolens(earshot, 'GET', '/keywords/suggestions?limit=100', key)).body;
    expect(whole.totalSuggestionCount).toBeGreaterThan(2);
    expect(whole.suggestions).toHaveLength(Math.min(whole.totalSuggestionCount, 100));
    expect((await octolens(earshot, 'GET', '/keywords/suggestions', key)).body.suggestions).toHaveLength(Math.min(whole.totalSuggestionCount, 25));
    const paged: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await octolens(earshot, 'GET', `/keywords/suggestions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, key);
      expect(page.status).toBe(200);
      expect(page.body.suggestions.length).toBeLessThanOrEqual(2);
      expect(page.body.totalSuggestionCount).toBe(whole.totalSuggestionCount);
      paged.push(...page.body.suggestions.map((suggestion: any) => suggestion.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole.suggestions.map((suggestion: any) => suggestion.id));
    for (const [parameter, value] of [['limit', '0'], ['limit', '101'], ['cursor', 'abc']]) {
      expectOctolensError(await octolens(earshot, 'GET', `/keywords/suggestions?${parameter}=${value}`, key), 400, 'VALIDATION_ERROR', { details: [{ path: [parameter], message: expect.any(String) }] });
    }
  });
});

describe('keyword suggestion dismissals', () => {
  it('dismisses one suggestion, then every one of a keyword: none is offered again, here or on /v1', async () => {
    const { created: theta, id: thetaId } = await keywordSuggestingOutage('theta');
    const listed = (await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${theta.body.id}`, key)).body.suggestions;
    const outage = listed.find((suggestion: any) => suggestion.type === 'add_exclude_words' && suggestion.value === 'outage');
    expect(outage).toBeDefined();
    const v1Values = async () => (await earshot.rest('GET', `/v1/keywords/${thetaId}/suggestions`, { key })).body.data.map((s: any) => `${s.type}:${s.values.join(',')}`);
    expect(await v1Values()).toContain('excluded_terms:outage');

    const rejected = await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { suggestionId: outage.id });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ success: true });
    const left = (await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${theta.body.id}`, key)).body.suggestions;
    expect(left.map((s: any) => s.id)).toEqual(listed.filter((s: any) => s.id !== outage.id).map((s: any) => s.id));
    expect(await v1Values()).not.toContain('excluded_terms:outage');
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { suggestionId: outage.id }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'POST', '/keywords/suggestions', key, { suggestionId: outage.id }), 404, 'NOT_FOUND');

    expect((await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { keywordId: theta.body.id })).body).toEqual({ success: true });
    expect((await octolens(earshot, 'GET', `/keywords/suggestions?keywordId=${theta.body.id}`, key)).body.suggestions).toEqual([]);
    // The keyword's matches and rules are as they were: dismissing changes nothing else.
    const kept = (await octolens(earshot, 'GET', '/keywords', key)).body.data.find((keyword: any) => keyword.id === theta.body.id);
    expect(kept).toMatchObject({ keyword: 'theta', excludeWords: null, platforms: ['reddit', 'twitter'] });
  });

  it('refuses neither or both ids 400 VALIDATION_ERROR, unknown ids 404 NOT_FOUND and a read key 403 FORBIDDEN', async () => {
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, {}), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['suggestionId'], message: expect.stringContaining('either') }],
    });
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { suggestionId: 1, keywordId: 1 }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['suggestionId'], message: expect.stringContaining('either') }],
    });
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { keywordId: 'one' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['keywordId'], message: expect.any(String) }],
    });
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { suggestionId: 999999 }), 404, 'NOT_FOUND');
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', key, { keywordId: 999999 }), 404, 'NOT_FOUND');
    const reader = (await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'dismiss-reader', scope: 'read' } })).body.key;
    expectOctolensError(await octolens(earshot, 'DELETE', '/keywords/suggestions', reader, { keywordId: 1 }), 403, 'FORBIDDEN');
  });
});

describe('integer ids', () => {
  it('are given on first sight, the next number of their kind, and stay the same across calls and restarts', async () => {
    const before = await listAll();
    expect(await listAll()).toEqual(before);
    const ids = before.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keywordsBefore = (await octolens(earshot, 'GET', '/keywords', key)).body.data;

    await earshot.stop();
    earshot = await startTestEarshot({}, { databaseUrl: earshot.databaseUrl });
    expect((await listAll()).map((row) => [row.sourceId, row.id, row.keywordId])).toEqual(before.map((row) => [row.sourceId, row.id, row.keywordId]));
    expect((await octolens(earshot, 'GET', '/keywords', key)).body.data.map((keyword: any) => [keyword.keyword, keyword.id])).toEqual(
      keywordsBefore.map((keyword: any) => [keyword.keyword, keyword.id]),
    );

    const [[fresh]] = await seed([keywords.beta.id], [75]);
    const [newest] = await listAll();
    expect(newest.sourceId).toBe(fresh);
    expect(newest.id).toBe(Math.max(...ids) + 1);
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'omega' });
    expect(created.body.id).toBe(Math.max(...keywordsBefore.map((keyword: any) => keyword.id)) + 1);
  });
});
