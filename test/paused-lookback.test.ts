import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { type FakeFeedHost, rss2Document, startFakeFeedHost } from './fake-upstreams/rss.ts';
import { leaveInWallet } from './billing-seed.ts';
import { creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { lookbackQueue } from '../jobs/lookback/index.ts';
import type { JobContext } from '../jobs/job-definition.ts';
import { manualClock } from '../runtime/clock.ts';
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
  hackerNewsStory({ id: 905, title: 'Scrivenly adds shared notebooks', createdAt: daysAgo(4) }),
  hackerNewsStory({ id: 906, title: 'Foliantry reaches version one', createdAt: daysAgo(2) }),
  hackerNewsStory({ id: 907, title: 'Foliantry opens its plugin store', createdAt: daysAgo(3) }),
];
/** The base poll interval, in seconds: the poll scheduler passes every second. */
const interval = 3;
/**
 * Earshot's time: the poll scheduler claims the polls due by it, so a regular
 * poll comes only once the test moves it; pg-boss's delays run on real time.
 */
const clock = manualClock(new Date());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({ hits: stories });
  feedHost = await startFakeFeedHost({});
  serveFeed('/feed.xml', 'Vellum blog', { id: 'v1', title: 'Vellumly 2.0 is out', html: '<p>Vellumly 2.0 brings offline notes.</p>' });
  serveFeed('/murmurix.xml', 'Murmurix news', { id: 'm1', title: 'Murmurix ships plugins', html: '<p>Murmurix now takes plugins.</p>' });
  serveFeed('/foliantry.xml', 'Foliantry news', { id: 'f1', title: 'Foliantry gets a dark mode', html: '<p>Foliantry now has a dark mode.</p>' });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_ALLOW_PRIVATE_URLS: '1' }, pollIntervalSeconds: interval }, { clock });
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
async function writeKeyword(method: 'POST' | 'PATCH', path: string, body?: unknown, apiKey = key): Promise<any> {
  const answer = method === 'PATCH' ? await patiently(() => earshot.rest(method, path, { key: apiKey, body })) : await earshot.rest(method, path, { key: apiKey, body });
  expect(answer.status).toBeLessThan(300);
  return answer.body;
}

const searchesFor = (term: string) => hackerNews.requests.filter((request) => request.query.get('query')?.includes(term));
/** What each search for the term read back: a look-back its 30 days, a regular poll from an hour before the last poll. */
const searchWindowsFor = (term: string) =>
  searchesFor(term).map((request) => {
    const since = Number(request.query.get('numericFilters')?.match(/created_at_i>(\d+)/)?.[1]) * 1000;
    return since < Date.now() - 29 * day ? '30 days' : 'since the last poll';
  });
/** The addresses of the keyword's stored mentions, sorted; read with the first workspace's key unless another is given. */
const mentionUrlsOf = async (keywordId: string, apiKey = key) => (await allMentionsOf(earshot, apiKey, keywordId)).map((mention: { post: { url: string } }) => mention.post.url).sort();
/** How many times the keyword's look-back has been queued, whatever became of the jobs. */
const lookbackJobsOf = async (keywordId: string) =>
  (await earshot.sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = 'lookback' and data->>'keywordId' = ${keywordId}`)[0].n;

/** Lets `count` base intervals go by, on Earshot's clock and in real time (for pg-boss's delays). */
async function passIntervals(count: number) {
  for (let i = 0; i < count; i++) {
    clock.advance(interval * 1000);
    await sleep(interval * 1000);
  }
}

/** Lets three intervals go by while the keywords' look-backs wait: no job is queued for them, and nothing more is searched or stored. */
async function expectWaiting(keywords: { id: string; term: string }[], apiKey = key) {
  const state = () => Promise.all(keywords.map(async ({ id, term }) => ({ jobs: await lookbackJobsOf(id), searches: searchesFor(term).length, mentions: await mentionUrlsOf(id, apiKey) })));
  const before = await state();
  await passIntervals(3);
  expect(await state()).toEqual(before);
}

/**
 * After the keyword started running: its look-back stores `urls` with one
 * search of its 30 days, no regular poll beside it, and the first regular
 * poll a base interval after the start, not before.
 */
async function expectLookedBackOnceThenPolled(keywordId: string, term: string, urls: string[], apiKey = key) {
  const startedAt = clock.now().getTime();
  expect(await eventually(() => mentionUrlsOf(keywordId, apiKey), (found) => found.length > 0, 30_000)).toEqual(urls);
  // A second short of an interval: the scheduler passes (every second) and leaves the keyword's polls alone.
  clock.set(new Date(startedAt + interval * 1000 - 1000));
  await sleep(2500);
  expect(searchWindowsFor(term)).toEqual(['30 days']);
  clock.set(new Date(startedAt + interval * 1000 + 1000));
  expect(await eventually(() => Promise.resolve(searchWindowsFor(term)), (windows) => windows.length > 1, 20_000)).toEqual(['30 days', 'since the last poll']);
}

describe('the look-back of a keyword that is not running (spec 4.2, 2.3, part 8)', () => {
  // A look-back ran while the keyword was muted, matched nothing, and was never repeated: its 30 days were lost. Then it waited as
  // a job queued again every interval, for ever, which woke up to an interval after the unmute while the overdue regular poll was
  // claimed at once: the platform was searched twice.
  it('of a keyword created muted waits with no job queued, and when unmuted intervals later searches its platform once for its 30 days, then regularly an interval on', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Quillcast', platforms: ['hackernews'], muted: true });
    await expectWaiting([{ id: keyword.id, term: 'Quillcast' }]);

    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: false });
    await expectLookedBackOnceThenPolled(keyword.id, 'Quillcast', ['https://news.ycombinator.com/item?id=901']);
  }, 90_000);

  it('of a platform and a feed added while muted waits for the unmute', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Inkwellio', platforms: ['linkedin'] });
    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: true });
    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { platforms: ['linkedin', 'hackernews'] });
    const vellum = await writeKeyword('POST', '/v1/keywords', { term: 'Vellumly', platforms: [], muted: true });
    await writeKeyword('PATCH', `/v1/keywords/${vellum.id}`, { feeds: [{ url: `${feedHost.url}/feed.xml` }] });
    await expectWaiting([
      { id: keyword.id, term: 'Inkwellio' },
      { id: vellum.id, term: 'Vellumly' },
    ]);

    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: false });
    await writeKeyword('PATCH', `/v1/keywords/${vellum.id}`, { muted: false });
    expect(await eventually(() => mentionUrlsOf(vellum.id), (urls) => urls.length > 0, 30_000)).toEqual([`${feedHost.url}/posts/v1`]);
    await expectLookedBackOnceThenPolled(keyword.id, 'Inkwellio', ['https://news.ycombinator.com/item?id=902']);
  }, 90_000);

  // A top-up resumes the keyword in billing's transaction: the poll scheduler's next pass queues its look-back before it claims polls.
  it('of a keyword created paused for balance is searched once for its 30 days when a top-up resumes it, then regularly an interval on', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Short wallet');
    await leaveInWallet(earshot.sql, workspace.id, 0);
    const created = await writeKeyword('POST', '/v1/keywords', { term: 'Parchmently', platforms: ['hackernews'] }, apiKey);
    expect(created).toMatchObject({ muted: true, pausedForBalance: true });
    await expectWaiting([{ id: created.id, term: 'Parchmently' }], apiKey);

    await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 2000, at: clock.now() });
    await expectLookedBackOnceThenPolled(created.id, 'Parchmently', ['https://news.ycombinator.com/item?id=903'], apiKey);
  }, 90_000);

  it('of a feed added to a keyword at its cap waits for the cap to be raised', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Capped');
    // Off the welcome credit, so the keyword's own cap applies.
    await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 2000, at: clock.now() });
    const asCapped = (method: string, path: string, body?: unknown) => patiently(() => earshot.rest(method, path, { key: apiKey, body }));
    const created = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term: 'Murmurix', platforms: ['hackernews'], cap: { mentions: 1 } } });
    const id = created.body.id;
    await eventually(async () => (await asCapped('GET', `/v1/keywords/${id}`)).body.pausedForCap, (capped) => capped === true, 30_000);
    const urls = () => mentionUrlsOf(id, apiKey);
    expect(await urls()).toEqual(['https://news.ycombinator.com/item?id=904']);

    expect((await asCapped('PATCH', `/v1/keywords/${id}`, { feeds: [{ url: `${feedHost.url}/murmurix.xml` }] })).status).toBe(200);
    await expectWaiting([{ id, term: 'Murmurix' }], apiKey);

    expect((await asCapped('PATCH', `/v1/keywords/${id}`, { cap: { mentions: 10 } })).body.pausedForCap).toBe(false);
    expect(await eventually(urls, (found) => found.length > 1, 30_000)).toEqual([`${feedHost.url}/posts/m1`, 'https://news.ycombinator.com/item?id=904'].sort());
    // The feed's look-back alone: the keyword's search platform was looked back on when it was created.
    expect(searchWindowsFor('Murmurix').filter((window) => window === '30 days')).toHaveLength(1);
  }, 90_000);

  // An install upgraded from a version whose look-backs waited as a chain of jobs, each queued again an interval on.
  it('honours a waiting job of the shape queued before: it becomes the keyword\'s record, and the unmute looks back once', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Scrivenly', platforms: ['hackernews'], muted: true });
    // Its only record of the wait is the job, as before the upgrade.
    await earshot.sql`delete from keyword_lookbacks where keyword_id = ${keyword.id}`;
    await earshot.sendJob('lookback', { keywordId: keyword.id, requestedAt: clock.now().toISOString(), waits: 7 });
    await eventually(
      async () => (await earshot.sql`select 1 from pgboss.job where name = 'lookback' and data->>'keywordId' = ${keyword.id} and state = 'completed'`).length,
      (done) => done === 1,
    );
    await expectWaiting([{ id: keyword.id, term: 'Scrivenly' }]);
    expect(await lookbackJobsOf(keyword.id)).toBe(1);

    await writeKeyword('PATCH', `/v1/keywords/${keyword.id}`, { muted: false });
    await expectLookedBackOnceThenPolled(keyword.id, 'Scrivenly', ['https://news.ycombinator.com/item?id=905']);
  }, 90_000);

  // The cap-periods job resumes the keyword in billing's transaction at midnight: the poll scheduler's next pass queues its look-back.
  it('of a feed added to a keyword at its daily cap reads the feed once when the day turns, then regularly an interval on', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Daily cap');
    await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 2000, at: clock.now() });
    const created = await writeKeyword('POST', '/v1/keywords', { term: 'Foliantry', platforms: ['hackernews'], cap: { mentions: 2, per: 'day' } }, apiKey);
    const keyword = async () => (await patiently(() => earshot.rest('GET', `/v1/keywords/${created.id}`, { key: apiKey }))).body;
    await eventually(keyword, (current) => current.pausedForCap === true, 30_000);
    const feedPath = '/foliantry.xml';
    await writeKeyword('PATCH', `/v1/keywords/${created.id}`, { feeds: [{ url: `${feedHost.url}${feedPath}` }] }, apiKey);
    const feedReads = () => feedHost.requests.filter((request) => request.path === feedPath).length;
    // Connecting the feed reads it once, to check it.
    const checked = feedReads();
    await expectWaiting([{ id: created.id, term: 'Foliantry' }], apiKey);
    expect(feedReads()).toBe(checked);

    const midnight = new Date(clock.now());
    midnight.setUTCHours(24, 0, 0, 0);
    clock.set(new Date(midnight.getTime() + 60_000));
    const resumedAt = clock.now().getTime();
    await earshot.sendJob('cap-periods', {});
    await eventually(keyword, (current) => current.pausedForCap === false, 30_000);
    // The feed's item is the new day's first charged match: under the cap, the keyword keeps running.
    expect(await eventually(() => mentionUrlsOf(created.id, apiKey), (urls) => urls.length > 2, 30_000)).toEqual(
      [`${feedHost.url}/posts/f1`, 'https://news.ycombinator.com/item?id=906', 'https://news.ycombinator.com/item?id=907'].sort(),
    );
    // A second short of an interval: the scheduler passes and leaves the feed's regular poll alone.
    clock.set(new Date(resumedAt + interval * 1000 - 1000));
    await sleep(2500);
    expect(feedReads()).toBe(checked + 1);
    clock.set(new Date(resumedAt + interval * 1000 + 1000));
    expect(await eventually(() => Promise.resolve(feedReads()), (reads) => reads > checked + 1, 20_000)).toBe(checked + 2);
  }, 90_000);

  // pg-boss runs a job again when its worker dies (or its batch fails) before the job completed.
  it('records a look-back that finds its keyword muted once when the same job is run twice, and queues nothing', async () => {
    const keyword = await writeKeyword('POST', '/v1/keywords', { term: 'Twicely', platforms: [], muted: true });
    const context: JobContext = { sql: earshot.sql, clock, log: createLogger('silent'), config: { pollIntervalSeconds: 3600, env: {} }, secrets: testSecrets, send: earshot.sendJob };
    const payload = lookbackQueue.payload.parse({ keywordId: keyword.id, feedUrls: [`${feedHost.url}/feed.xml`] });
    await lookbackQueue.handle([payload], context);
    await lookbackQueue.handle([payload], context);
    expect(await earshot.sql`select whole, platforms, feed_urls, storefronts from keyword_lookbacks where keyword_id = ${keyword.id}`).toEqual([
      { whole: true, platforms: [], feedUrls: [`${feedHost.url}/feed.xml`], storefronts: [] },
    ]);
    expect(await lookbackJobsOf(keyword.id)).toBe(0);
  });
});
