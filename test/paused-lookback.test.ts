import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { type FakeFeedHost, rss2Document, startFakeFeedHost } from './fake-upstreams/rss.ts';
import { leaveInWallet } from './billing-seed.ts';
import { creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { lookbackQueue } from '../jobs/lookback/index.ts';
import type { JobContext } from '../jobs/job-definition.ts';
import { systemClock } from '../runtime/clock.ts';
import { createLogger } from '../runtime/logger.ts';
import { allMentionsOf, eventually, patiently, startTestEarshot, testSecrets, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let feedHost: FakeFeedHost;
let key: string;
const day = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * day);
// Posts older than a day and a regular poll's hour of overlap: only a look-back reads them.
const stories = [
  hackerNewsStory({ id: 901, title: 'Quillcast launches its public beta', createdAt: daysAgo(5) }),
  hackerNewsStory({ id: 902, title: 'Inkwellio raises a seed round', createdAt: daysAgo(6) }),
  hackerNewsStory({ id: 903, title: 'Parchmently is now open source', createdAt: daysAgo(7) }),
  hackerNewsStory({ id: 904, title: 'Murmurix tops the charts', createdAt: daysAgo(3) }),
];

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({ hits: stories });
  feedHost = await startFakeFeedHost({});
  serveFeed('/feed.xml', 'Vellum blog', { id: 'v1', title: 'Vellumly 2.0 is out', html: '<p>Vellumly 2.0 brings offline notes.</p>' });
  serveFeed('/murmurix.xml', 'Murmurix news', { id: 'm1', title: 'Murmurix ships plugins', html: '<p>Murmurix now takes plugins.</p>' });
  // A short base interval: a waiting look-back looks again every 3 s, and regular polls run (a day back) for running keywords.
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_ALLOW_PRIVATE_URLS: '1' }, pollIntervalSeconds: 3 });
  key = (await earshot.createWorkspace('Paused look-backs')).apiKey;
});
/** A feed at `path` of the feed host with one item four days old, at /posts/<its id>. */
function serveFeed(path: string, title: string, item: { id: string; title: string; html: string }) {
  const feedUrl = `${feedHost.url}${path}`;
  const items = [{ ...item, url: `${feedHost.url}/posts/${item.id}`, publishedAt: daysAgo(4) }];
  feedHost.routes[path] = { feed: rss2Document({ title, siteUrl: feedHost.url, feedUrl, items }), contentType: 'application/rss+xml' };
}
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
  await feedHost?.close();
});

/** A keyword created, or a PATCH of one (asked again while the service is too busy to answer: the same PATCH changes nothing twice). */
async function writeKeyword(method: 'POST' | 'PATCH', path: string, body?: unknown): Promise<any> {
  const answer = method === 'PATCH' ? await patiently(() => earshot.rest(method, path, { key, body })) : await earshot.rest(method, path, { key, body });
  expect(answer.status).toBeLessThan(300);
  return answer.body;
}

const searchesFor = (term: string) => hackerNews.requests.filter((request) => request.query.get('query')?.includes(term)).length;
/** The addresses of the keyword's stored mentions, sorted; read with the first workspace's key unless another is given. */
const mentionUrlsOf = async (keywordId: string, apiKey = key) => (await allMentionsOf(earshot, apiKey, keywordId)).map((mention: { post: { url: string } }) => mention.post.url).sort();
/** How many times the keyword's look-back has been queued: more than once means it has waited. */
const lookbackJobsOf = async (keywordId: string) =>
  (await earshot.sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = 'lookback' and data->>'keywordId' = ${keywordId}`)[0].n;
/** Waits while the keyword's look-back is found not running twice, and checks it read and stored nothing meanwhile. */
async function expectWaiting(keywordId: string, term: string) {
  const searches = searchesFor(term);
  await eventually(() => lookbackJobsOf(keywordId), (queued) => queued >= 3, 30_000);
  expect(searchesFor(term)).toBe(searches);
  expect(await mentionUrlsOf(keywordId)).toEqual([]);
}

describe('the look-back of a keyword that is not running (spec 4.2, 2.3, part 8)', () => {
  // A look-back ran while the keyword was muted, matched nothing, and was never repeated: its 30 days were lost.
  it('of a keyword created muted waits, searching nothing, and reads its 30 days when the keyword is unmuted', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Quillcast', platforms: ['hackernews'], muted: true });
    await expectWaiting(keyword.id, 'Quillcast');

    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: false });
    expect(await eventually(() => mentionUrlsOf(keyword.id), (urls) => urls.length > 0, 30_000)).toEqual(['https://news.ycombinator.com/item?id=901']);
  }, 90_000);

  it('of a platform and a feed added while muted waits for the unmute', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Inkwellio', platforms: ['linkedin'] });
    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: true });
    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { platforms: ['linkedin', 'hackernews'] });
    const vellum = await writeKeyword('POST', '/v1/keywords', { term: 'Vellumly', platforms: [], muted: true });
    await writeKeyword('PATCH', `/v1/keywords/${vellum.id}`, { feeds: [{ url: `${feedHost.url}/feed.xml` }] });
    await expectWaiting(keyword.id, 'Inkwellio');
    await expectWaiting(vellum.id, 'Vellumly');

    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: false });
    await writeKeyword('PATCH', `/v1/keywords/${vellum.id}`, { muted: false });
    expect(await eventually(() => mentionUrlsOf(keyword.id), (urls) => urls.length > 0, 30_000)).toEqual(['https://news.ycombinator.com/item?id=902']);
    expect(await eventually(() => mentionUrlsOf(vellum.id), (urls) => urls.length > 0, 30_000)).toEqual([`${feedHost.url}/posts/v1`]);
  }, 90_000);

  it('of a keyword created paused for balance reads its 30 days once a top-up resumes it', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Short wallet');
    await leaveInWallet(earshot.sql, workspace.id, 0);
    const created = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'Parchmently', platforms: ['hackernews'] } });
    expect(created.body).toMatchObject({ muted: true, pausedForBalance: true });
    const searches = searchesFor('Parchmently');
    await eventually(() => lookbackJobsOf(created.body.id), (queued) => queued >= 3, 30_000);
    expect(searchesFor('Parchmently')).toBe(searches);

    await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 2000, at: new Date() });
    const stored = await eventually(() => mentionUrlsOf(created.body.id, apiKey), (urls) => urls.length > 0, 30_000);
    expect(stored).toEqual(['https://news.ycombinator.com/item?id=903']);
  }, 90_000);

  it('of a feed added to a keyword at its cap waits for the cap to be raised', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Capped');
    // Off the welcome credit, so the keyword's own cap applies.
    await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 2000, at: new Date() });
    const asCapped = (method: string, path: string, body?: unknown) => patiently(() => earshot.rest(method, path, { key: apiKey, body }));
    const created = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'Murmurix', platforms: ['hackernews'], cap: { mentions: 1 } } });
    const id = created.body.id;
    await eventually(async () => (await asCapped('GET', `/v1/keywords/${id}`)).body.pausedForCap, (capped) => capped === true, 30_000);
    const urls = () => mentionUrlsOf(id, apiKey);
    expect(await urls()).toEqual(['https://news.ycombinator.com/item?id=904']);

    expect((await asCapped('PATCH', `/v1/keywords/${id}`, { feeds: [{ url: `${feedHost.url}/murmurix.xml` }] })).status).toBe(200);
    await eventually(() => lookbackJobsOf(id), (queued) => queued >= 4, 30_000);
    expect(await urls()).toEqual(['https://news.ycombinator.com/item?id=904']);

    expect((await asCapped('PATCH', `/v1/keywords/${id}`, { cap: { mentions: 10 } })).body.pausedForCap).toBe(false);
    expect(await eventually(urls, (found) => found.length > 1, 30_000)).toEqual([`${feedHost.url}/posts/m1`, 'https://news.ycombinator.com/item?id=904'].sort());
  }, 90_000);

  // pg-boss runs a job again when its worker dies (or its batch fails) after the handler re-queued it but before the job completed.
  it('re-queues a waiting look-back once when the same job is run twice, so no second chain of waits is started', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Twicely', platforms: [], muted: true });
    const context: JobContext = { sql: earshot.sql, clock: systemClock, log: createLogger('silent'), config: { pollIntervalSeconds: 3600, env: {} }, secrets: testSecrets, send: earshot.sendJob };
    const payload = lookbackQueue.payload.parse({ keywordId: keyword.id, feedUrls: [`${feedHost.url}/feed.xml`] });
    await lookbackQueue.handle([payload], context);
    await lookbackQueue.handle([payload], context);
    const waiting = await earshot.sql`select 1 from pgboss.job where name = 'lookback' and data->>'keywordId' = ${keyword.id} and data ? 'feedUrls'`;
    expect(waiting.length).toBe(1);
  });
});
