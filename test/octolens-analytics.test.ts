import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { expectOctolensError, octolens } from './octolens-shapes.ts';
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
  await seed(w.keywordId, 'x', '2026-03-02T10:00:00Z', { relevance: 90, sentiment: 'positive' });
  await seed(w.keywordId, 'reddit', '2026-03-03T10:00:00Z', { relevance: 80, sentiment: 'negative' });
  // Not relevant: the lists leave it out, so do the counts.
  await seed(w.keywordId, 'github', '2026-03-04T10:00:00Z', { relevance: 20, sentiment: 'neutral' });
  // Scored positive, corrected to negative by a user: it counts as negative.
  const corrected = await seed(w.keywordId, 'x', '2026-03-05T10:00:00Z', { relevance: 90, sentiment: 'positive' });
  expect((await earshot.rest('PATCH', `/v1/mentions/${corrected}`, { key: w.key, body: { sentiment: 'negative' } })).status).toBe(200);
  // Not scored yet: no sentiment to count.
  await seed(w.keywordId, 'x', '2026-03-06T10:00:00Z', null);
  await seed(globex, 'x', '2026-03-07T10:00:00Z', { relevance: 70, sentiment: 'neutral' });
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

  it('defaults to the last 30 days, and answers a read key', async () => {
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key: w.key, body: { name: 'reader', scope: 'read' } })).body.key;
    const answer = await sentiment('', readKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(distribution(0, 1, 0));
  });

  it('refuses a backwards window and bad values 400 VALIDATION_ERROR naming the parameter, and a tag 501 FEATURE_DISABLED', async () => {
    expectOctolensError(await sentiment('startDate=2026-03-10T00:00:00Z&endDate=2026-03-10T00:00:00Z'), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['startDate'], message: 'startDate: must be before endDate' }],
    });
    expectOctolensError(await sentiment('startDate=yesterday'), 400, 'VALIDATION_ERROR', { details: [{ path: ['startDate'], message: expect.stringContaining('startDate') }] });
    expectOctolensError(await sentiment('keywordIds=kw_1'), 400, 'VALIDATION_ERROR', { details: [{ path: ['keywordIds', '0'], message: expect.stringContaining('integer') }] });
    expectOctolensError(await sentiment('bucket=day'), 400, 'VALIDATION_ERROR', { details: [{ path: ['bucket'], message: expect.stringContaining('unknown query parameter') }] });
    expectOctolensError(await sentiment(`${march}&tag=buy_intent`), 501, 'FEATURE_DISABLED');
    expectOctolensError(await octolens(earshot, 'GET', '/analytics/sentiment', undefined), 401, 'UNAUTHORIZED');
  });
});
