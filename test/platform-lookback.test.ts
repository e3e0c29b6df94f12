import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { allMentionsOf, eventually, patiently, startTestEarshot, type TestEarshot } from './harness.ts';
import { octolens } from './octolens-shapes.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;
const day = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * day);

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({
    hits: [
      hackerNewsStory({ id: 801, title: 'Earshot heard us on Hacker News', createdAt: daysAgo(2) }),
      hackerNewsStory({ id: 802, title: 'Earshot, an old story', createdAt: daysAgo(40) }),
      hackerNewsStory({ id: 811, title: 'Earful is the new name of Hearsay', createdAt: daysAgo(3) }),
      hackerNewsStory({ id: 821, title: 'Overhear ships a CLI', createdAt: daysAgo(5) }),
      hackerNewsStory({ id: 831, title: 'Eavesdrop goes open source', createdAt: daysAgo(4) }),
    ],
  });
  // An hour between regular polls: within the test a platform is read back beyond a day only by a look-back.
  // LinkedIn has no search provider here, so a keyword on it alone reads nothing.
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 3600 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

async function createKeyword(term: string, platforms: string[]): Promise<string> {
  const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term, platforms } });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function patchKeyword(id: string, body: unknown): Promise<void> {
  const patched = await earshot.rest('PATCH', `/v1/keywords/${id}`, { key, body });
  expect(patched.status).toBe(200);
}

/** The keyword's look-back jobs in the order they were queued: null for a new keyword's, else the platforms a change added. */
const lookbacksOf = async (keywordId: string) =>
  (await earshot.sql<{ platforms: string[] | null }[]>`
    select data->'platforms' as platforms from pgboss.job where name = 'lookback' and data->>'keywordId' = ${keywordId} order by created_on, id`).map(
    (job) => job.platforms,
  );

/** The keyword's poll rows and when each is next due, by platform. */
const nextPollsOf = (keywordId: string) =>
  earshot.sql<{ platform: string; nextPollAt: Date }[]>`select platform, next_poll_at from keyword_polls where keyword_id = ${keywordId} order by platform`;

const storyIdsOf = async (keywordId: string) => (await allMentionsOf(earshot, key, keywordId)).map((mention: { post: { url: string } }) => Number(mention.post.url.split('id=')[1])).sort();

/** Waits until a look-back of Hacker News has read the platform for the keyword (its poll's lastPolledAt is set). */
const hackerNewsReadFor = (keywordId: string) =>
  eventually(
    async () => (await patiently(() => earshot.rest('GET', `/v1/keywords/${keywordId}`, { key }))).body.polling,
    (polling: { platform: string; lastPolledAt: string | null }[]) => polling.some((entry) => entry.platform === 'hackernews' && entry.lastPolledAt !== null),
    30_000,
  );

describe('a platform added to a keyword (spec 4.2, part 8)', () => {
  // A platform added by PATCH was first read by a regular poll, a day back: the user saw nothing of its last 30 days.
  it('looks back over its last 30 days, alone, queued with the change: its posts of the window arrive once, older ones never', async () => {
    const id = await createKeyword('Earshot', ['linkedin']);
    const searchesBefore = hackerNews.requests.length;
    const [linkedinDue] = await nextPollsOf(id);
    const patchedAt = Date.now();
    await patchKeyword(id, { platforms: ['linkedin', 'hackernews'] });
    expect(await lookbacksOf(id)).toEqual([null, ['hackernews']]);
    // Its regular poll comes an interval on, as a new keyword's, not at once beside the look-back (a second search); the others keep their time.
    const [hackerNewsDue, linkedinDueAfter] = await nextPollsOf(id);
    expect(hackerNewsDue.platform).toBe('hackernews');
    expect(hackerNewsDue.nextPollAt.getTime()).toBeGreaterThanOrEqual(patchedAt + 3600_000 - 5_000);
    expect(linkedinDueAfter).toEqual(linkedinDue);

    await hackerNewsReadFor(id);
    expect(await eventually(() => storyIdsOf(id), (ids) => ids.length > 0)).toEqual([801]);
    const windows = hackerNews.requests.slice(searchesBefore).map((request) => Number(request.query.get('numericFilters')?.match(/created_at_i>(\d+)/)?.[1]) * 1000);
    expect(Math.min(...windows)).toBeGreaterThan(daysAgo(30).getTime() - 60_000);
    expect(Math.min(...windows)).toBeLessThan(daysAgo(29).getTime());

    // The same platforms, in another order or beside another change, are not added: nothing is looked back again.
    await patchKeyword(id, { platforms: ['hackernews', 'linkedin'], context: 'Our monitoring product' });
    await patchKeyword(id, { kind: 'competitor' });
    expect(await lookbacksOf(id)).toEqual([null, ['hackernews']]);
    expect(await storyIdsOf(id)).toEqual([801]);
  });

  it('is not a rename: a new term looks back nothing, a platform added to a renamed keyword its whole window; a refused change queues nothing', async () => {
    const id = await createKeyword('Hearsay', ['linkedin']);
    await patchKeyword(id, { term: 'Earful' });
    expect(await lookbacksOf(id)).toEqual([null]);

    await createKeyword('Murmur', ['linkedin']);
    const refused = await earshot.rest('PATCH', `/v1/keywords/${id}`, { key, body: { term: 'Murmur', platforms: ['linkedin', 'hackernews'] } });
    expect(refused.status).toBe(409);
    expect(await lookbacksOf(id)).toEqual([null]);

    // The story is older than the rename: the look-back of the platform added brings it all the same, as a feed's does.
    await patchKeyword(id, { platforms: ['linkedin', 'hackernews'] });
    expect(await lookbacksOf(id)).toEqual([null, ['hackernews']]);
    expect(await eventually(() => storyIdsOf(id), (ids) => ids.length > 0, 30_000)).toEqual([811]);
  });

  it('looks back again when removed and added back; what it stored stays one mention, charged once', async () => {
    const id = await createKeyword('Overhear', ['hackernews', 'linkedin']);
    const billed = async () => (await earshot.rest('GET', `/v1/keywords/${id}`, { key })).body.stats.cost.billableMentions as number;
    await eventually(billed, (count) => count === 1, 30_000);
    expect(await storyIdsOf(id)).toEqual([821]);

    await patchKeyword(id, { platforms: ['linkedin'] });
    await patchKeyword(id, { platforms: ['linkedin', 'hackernews'] });
    expect(await lookbacksOf(id)).toEqual([null, ['hackernews']]);
    await hackerNewsReadFor(id);
    // Scoring of a stored duplicate would have queued; give it the time a first scoring took.
    await eventually(async () => (await earshot.sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name in ('lookback', 'poll', 'score') and state in ('created', 'retry', 'active')`)[0].n, (n) => n === 0, 30_000);
    expect(await storyIdsOf(id)).toEqual([821]);
    expect(await billed()).toBe(1);
  });

  it('is looked back on through the Octolens-compatible update too', async () => {
    const created = await octolens(earshot, 'POST', '/keywords', key, { keyword: 'Eavesdrop', platforms: ['linkedin'] });
    const list = await earshot.rest('GET', '/v1/keywords', { key });
    const id = list.body.data.find((keyword: { term: string }) => keyword.term === 'Eavesdrop').id;
    const updated = await octolens(earshot, 'PATCH', `/keywords/${created.body.id}`, key, { platforms: ['linkedin', 'hackernews'] });
    expect(updated.status).toBe(200);
    expect(await lookbacksOf(id)).toEqual([null, ['hackernews']]);
    expect(await eventually(() => storyIdsOf(id), (ids) => ids.length > 0, 30_000)).toEqual([831]);
  });
});
