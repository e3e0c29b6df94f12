import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { expectOctolensError, expectOctolensShape, octolens } from './octolens-shapes.ts';
import { account, classify, postBy, seedWorkspace, type SeededWorkspace, storePosts } from './people-seed.ts';

let earshot: TestEarshot;
let w: SeededWorkspace;
const compatKeywordIds: Record<string, number> = {};

const day = 86_400_000;
const now = Date.now();

beforeAll(async () => {
  earshot = await startTestEarshot();
  w = await seedWorkspace(earshot, 'octolens-analytics');
  const globex = (await earshot.rest('POST', '/v1/keywords', { key: w.key, body: { term: 'Globex' } })).body.id as string;
  const seed = async (keywordId: string, platform: 'x' | 'reddit' | 'github', publishedAt: string | Date, result: Parameters<typeof classify>[2] | null) => {
    const [id] = await storePosts(earshot, { workspaceId: w.workspaceId, keywordId }, [postBy(account(platform, `dev_${platform}`), 'A post', new Date(publishedAt))]);
    if (result) await classify(earshot, id, result);
    return id;
  };
  await seed(w.keywordId, 'x', '2026-03-02T10:00:00Z', { relevance: 90, sentiment: 'positive', intents: ['buy_intent'] });
  await seed(w.keywordId, 'reddit', '2026-03-03T10:00:00Z', { relevance: 80, sentiment: 'negative', intents: ['question', 'buy_intent'] });
  // Not relevant: the lists leave it out, so do the counts.
  await seed(w.keywordId, 'github', '2026-03-04T10:00:00Z', { relevance: 20, sentiment: 'neutral' });
  // Scored positive, corrected to negative by a user: it counts as negative.
  const corrected = await seed(w.keywordId, 'x', '2026-03-05T10:00:00Z', { relevance: 90, sentiment: 'positive' });
  expect((await earshot.rest('PATCH', `/v1/mentions/${corrected}`, { key: w.key, body: { sentiment: 'negative' } })).status).toBe(200);
  // Not scored yet: no sentiment to count.
  await seed(w.keywordId, 'x', '2026-03-06T10:00:00Z', null);
  await seed(globex, 'x', '2026-03-07T10:00:00Z', { relevance: 70, sentiment: 'neutral', intents: ['question'] });
  // On the window's end, which is excluded.
  await seed(globex, 'reddit', '2026-03-10T00:00:00Z', { relevance: 70, sentiment: 'positive' });
  // Inside and outside the default window of the last 30 days.
  await seed(w.keywordId, 'reddit', new Date(now - 2 * day), { relevance: 90, sentiment: 'neutral' });
  await seed(w.keywordId, 'reddit', new Date(now - 40 * day), { relevance: 90, sentiment: 'negative' });

  for (const keyword of (await octolens(earshot, 'GET', '/keywords', w.key)).body.data) compatKeywordIds[keyword.keyword] = keyword.id;
});
afterAll(() => earshot?.stop());

const march = 'startDate=2026-03-01T00:00:00Z&endDate=2026-03-10T00:00:00Z';
const sentiment = (query: string, key = w.key) => octolens(earshot, 'GET', `/analytics/sentiment?${query}`, key);
const distribution = (positive: number, neutral: number, negative: number) => ({
  data: [
    { sentiment: 'Positive', count: positive },
    { sentiment: 'Neutral', count: neutral },
    { sentiment: 'Negative', count: negative },
  ],
});

describe('GET /compat/octolens/api/v2/analytics/sentiment', () => {
  it('counts the relevant mentions of the window by sentiment, corrected ones as corrected, the end excluded', async () => {
    const answer = await sentiment(march);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(distribution(1, 1, 2));
    // What the Earshot API counts for the same window, under Octolens's names.
    const ours = await earshot.rest('GET', '/v1/analytics?by=sentiment&bucket=month&since=2026-03-01T00:00:00Z&until=2026-03-09T23:59:59.999Z', { key: w.key });
    expect(Object.fromEntries(ours.body.series.map((series: { key: string; total: number }) => [series.key, series.total]))).toEqual({ positive: 1, neutral: 1, negative: 2 });
  });

  it('narrows to integer keyword ids and to platforms in Octolens names; ids or names that match nothing count nothing', async () => {
    expect((await sentiment(`${march}&keywordIds=${compatKeywordIds.Globex}`)).body).toEqual(distribution(0, 1, 0));
    expect((await sentiment(`${march}&keywordIds=${compatKeywordIds.Acme},${compatKeywordIds.Globex}`)).body).toEqual(distribution(1, 1, 2));
    expect((await sentiment(`${march}&platforms=twitter`)).body).toEqual(distribution(1, 1, 1));
    expect((await sentiment(`${march}&platforms=reddit,twitter`)).body).toEqual(distribution(1, 1, 2));
    expect((await sentiment(`${march}&keywordIds=999999`)).body).toEqual(distribution(0, 0, 0));
    expect((await sentiment(`${march}&platforms=tiktok`)).body).toEqual(distribution(0, 0, 0));
  });

  it('takes keyword ids and platforms as repeated parameters, the form of an array in Octolens’s reference', async () => {
    const repeated = await sentiment(`${march}&keywordIds=${compatKeywordIds.Acme}&keywordIds=${compatKeywordIds.Globex}&platforms=reddit&platforms=twitter`);
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual(distribution(1, 1, 2));
    expect((await sentiment(`${march}&platforms=reddit&platforms=github`)).body).toEqual(distribution(0, 0, 1));
    expectOctolensError(await sentiment(`keywordIds=${compatKeywordIds.Acme}&keywordIds=kw_1`), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['keywordIds', '1'], message: expect.stringContaining('integer') }],
    });
  });

  it('narrows to relevance buckets (default 0 and 1, the relevant mentions) and to sentiments, as Octolens’s analytics do', async () => {
    expect((await sentiment(`${march}&relevance=2`)).body).toEqual(distribution(0, 1, 0));
    expect((await sentiment(`${march}&relevance=0&relevance=2`)).body).toEqual(distribution(1, 2, 2));
    expect((await sentiment(`${march}&relevance=0,1`)).body).toEqual(distribution(1, 1, 2));
    expect((await sentiment(`${march}&relevance=1`)).body).toEqual(distribution(0, 0, 0));
    expect((await sentiment(`${march}&sentiment=POSITIVE`)).body).toEqual(distribution(1, 0, 0));
    expect((await sentiment(`${march}&sentiment=NEGATIVE&sentiment=neutral&relevance=0&relevance=1&relevance=2`)).body).toEqual(distribution(0, 2, 2));
    expect((await analytics('sources', `${march}&sentiment=NEGATIVE`)).body).toEqual({ data: [{ source: 'reddit', count: 1 }, { source: 'twitter', count: 1 }] });
    expectOctolensError(await sentiment('relevance=3'), 400, 'VALIDATION_ERROR', { details: [{ path: ['relevance', '0'], message: expect.any(String) }] });
    expectOctolensError(await sentiment('sentiment=happy'), 400, 'VALIDATION_ERROR', { details: [{ path: ['sentiment', '0'], message: expect.any(String) }] });
  });

  it('defaults to the last 30 days, and answers a read key', async () => {
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: w.key, body: { name: 'reader', scope: 'read' } })).body.key;
    const answer = await sentiment('', readKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(distribution(0, 1, 0));
  });

  it('narrows to a tag, which is an intent: a mention with several counts under each; another tag counts nothing', async () => {
    expect((await sentiment(`${march}&tag=buy_intent`)).body).toEqual(distribution(1, 0, 1));
    expect((await sentiment(`${march}&tag=question`)).body).toEqual(distribution(0, 1, 1));
    expect((await sentiment(`${march}&tag=question&keywordIds=${compatKeywordIds.Globex}`)).body).toEqual(distribution(0, 1, 0));
    expect((await sentiment(`${march}&tag=pricing`)).body).toEqual(distribution(0, 0, 0));
  });

  it('refuses a backwards window and bad values 400 VALIDATION_ERROR naming the parameter', async () => {
    expectOctolensError(await sentiment('startDate=2026-03-10T00:00:00Z&endDate=2026-03-10T00:00:00Z'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['startDate'], message: 'startDate: must be before endDate' }],
    });
    // Octolens's windows span at most 365 days.
    expect((await sentiment('startDate=2025-03-10T00:00:00Z&endDate=2026-03-10T00:00:00Z')).status).toBe(200);
    for (const route of ['sentiment', 'volume', 'sources', 'keywords']) {
      expectOctolensError(await analytics(route, 'startDate=2025-03-10T00:00:00Z&endDate=2026-03-10T00:00:01Z'), 400, 'VALIDATION_ERROR', {
        details: [{ path: ['endDate'], message: expect.stringContaining('365 days') }],
      });
    }
    expectOctolensError(await sentiment('startDate=yesterday'), 400, 'VALIDATION_ERROR', { details: [{ path: ['startDate'], message: expect.stringContaining('startDate') }] });
    expectOctolensError(await sentiment('keywordIds=kw_1'), 400, 'VALIDATION_ERROR', { details: [{ path: ['keywordIds', '0'], message: expect.stringContaining('integer') }] });
    expectOctolensError(await sentiment('bucket=day'), 400, 'VALIDATION_ERROR', { details: [{ path: ['bucket'], message: expect.stringContaining('unknown query parameter') }] });
    expectOctolensError(await sentiment('tag='), 400, 'VALIDATION_ERROR', { details: [{ path: ['tag'], message: expect.any(String) }] });
    expectOctolensError(await octolens(earshot, 'GET', '/analytics/sentiment', undefined), 401, 'UNAUTHORIZED');
  });
});

const analytics = (route: string, query: string, key = w.key) => octolens(earshot, 'GET', `/analytics/${route}?${query}`, key);

describe('GET /compat/octolens/api/v2/analytics/volume', () => {
  it('counts the relevant mentions of the window per UTC day in the recorded shape, oldest first, empty days left out', async () => {
    // 03-04 holds one not relevant, 03-06 one not scored yet: neither is relevant.
    const answer = await analytics('volume', march);
    expectOctolensShape(answer, 'analytics-volume');
    expect(answer.body).toEqual({
      granularity: 'day',
      data: [
        { bucket: '2026-03-02', count: 1 },
        { bucket: '2026-03-03', count: 1 },
        { bucket: '2026-03-05', count: 1 },
        { bucket: '2026-03-07', count: 1 },
      ],
    });
    // The same days through the Earshot API, which lists every day of the range.
    const ours = await earshot.rest('GET', '/v1/analytics?by=platform&bucket=day&since=2026-03-01T00:00:00Z&until=2026-03-09T23:59:59.999Z', { key: w.key });
    expect(ours.body.totals.filter((point: { count: number }) => point.count > 0).map((point: { start: string }) => point.start.slice(0, 10))).toEqual(
      answer.body.data.map((point: { bucket: string }) => point.bucket),
    );
  });

  it('counts per hour, narrowed like the other counts', async () => {
    expect((await analytics('volume', 'granularity=hour&startDate=2026-03-02T00:00:00Z&endDate=2026-03-04T00:00:00Z&platforms=reddit')).body).toEqual({
      granularity: 'hour',
      data: [{ bucket: '2026-03-03T10:00:00.000Z', count: 1 }],
    });
    expect((await analytics('volume', `${march}&tag=question`)).body).toEqual({
      granularity: 'day',
      data: [
        { bucket: '2026-03-03', count: 1 },
        { bucket: '2026-03-07', count: 1 },
      ],
    });
    expect((await analytics('volume', `${march}&keywordIds=999999`)).body).toEqual({ granularity: 'day', data: [] });
  });

  it('refuses a bad granularity and more than 1,000 buckets 400 VALIDATION_ERROR', async () => {
    expectOctolensError(await analytics('volume', 'granularity=week'), 400, 'VALIDATION_ERROR', { details: [{ path: ['granularity'], message: expect.any(String) }] });
    expectOctolensError(await analytics('volume', 'granularity=hour&startDate=2026-01-01T00:00:00Z&endDate=2026-03-01T00:00:00Z'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['granularity'], message: expect.stringContaining('at most 1000') }],
    });
    // 1,000 hours from a half hour touch 1,001 of them.
    expectOctolensError(await analytics('volume', 'granularity=hour&startDate=2026-01-01T00:30:00Z&endDate=2026-02-11T16:30:00Z'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['granularity'], message: expect.stringContaining('1001') }],
    });
    expect((await analytics('volume', 'granularity=hour&startDate=2026-01-01T00:00:00Z&endDate=2026-02-11T16:00:00Z')).status).toBe(200);
    expectOctolensError(await octolens(earshot, 'GET', '/analytics/volume', undefined), 401, 'UNAUTHORIZED');
  });
});

describe('GET /compat/octolens/api/v2/analytics/sources and /analytics/keywords', () => {
  it('counts the relevant mentions of the window per platform in Octolens’s names, the most first, in the recorded shape', async () => {
    const answer = await analytics('sources', march);
    expectOctolensShape(answer, 'analytics-sources');
    expect(answer.body).toEqual({
      data: [
        { source: 'twitter', count: 3 },
        { source: 'reddit', count: 1 },
      ],
    });
    expect((await analytics('sources', `${march}&tag=question`)).body).toEqual({
      data: [
        { source: 'reddit', count: 1 },
        { source: 'twitter', count: 1 },
      ],
    });
  });

  it('counts them per keyword with its integer id and term, the most first, in the recorded shape; a read key may ask', async () => {
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: w.key, body: { name: 'counter', scope: 'read' } })).body.key;
    const answer = await analytics('keywords', march, readKey);
    expectOctolensShape(answer, 'analytics-keywords');
    expect(answer.body).toEqual({
      data: [
        { keywordId: compatKeywordIds.Acme, keyword: 'Acme', count: 3 },
        { keywordId: compatKeywordIds.Globex, keyword: 'Globex', count: 1 },
      ],
    });
    expect((await analytics('keywords', `${march}&platforms=reddit`)).body).toEqual({ data: [{ keywordId: compatKeywordIds.Acme, keyword: 'Acme', count: 1 }] });
    expect((await analytics('keywords', `${march}&keywordIds=${compatKeywordIds.Globex}`)).body).toEqual({
      data: [{ keywordId: compatKeywordIds.Globex, keyword: 'Globex', count: 1 }],
    });
  });

  it('refuses bad values 400 VALIDATION_ERROR and a missing key 401 UNAUTHORIZED', async () => {
    expectOctolensError(await analytics('sources', 'endDate=2026-03-01T00:00:00Z&startDate=2026-03-02T00:00:00Z'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['startDate'], message: 'startDate: must be before endDate' }],
    });
    expectOctolensError(await analytics('keywords', 'granularity=day'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['granularity'], message: expect.stringContaining('unknown query parameter') }],
    });
    expectOctolensError(await octolens(earshot, 'GET', '/analytics/keywords', undefined), 401, 'UNAUTHORIZED');
    expectOctolensError(await octolens(earshot, 'GET', '/analytics/sources', undefined), 401, 'UNAUTHORIZED');
  });
});
