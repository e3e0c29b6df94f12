import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({
    hits: [hackerNewsStory({ id: 501, title: 'Earshot heard us on Hacker News', createdAt: new Date(Date.now() - 2 * 86_400_000) })],
  });
  // An hour between regular polls: within the test only the look-back reads the platform.
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 3600 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

describe("a new keyword's look-back", () => {
  // The look-back left lastPolledAt null: the keyword showed its platform as never polled, its look-back mentions already in, until the first regular poll an interval later.
  it('counts as a poll on its platform: lastPolledAt is set, the schedule and empty polls left to the regular polls', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot', platforms: ['hackernews'] } });
    expect(created.status).toBe(201);
    // The list shows relevant mentions unless asked for the rest: the story is in one of the two.
    const mentionsOf = async (relevant: boolean) =>
      (await earshot.rest('GET', `/v1/mentions?keywordId=${created.body.id}&relevant=${relevant}`, { key })).body.data.length as number;
    const mentions = await eventually(async () => (await mentionsOf(true)) + (await mentionsOf(false)), (count) => count > 0);
    expect(mentions).toBe(1);
    const polling = await eventually(
      async () => (await earshot.rest('GET', `/v1/keywords/${created.body.id}`, { key })).body.polling,
      (entries) => entries[0]?.lastPolledAt !== null,
    );
    expect(polling).toEqual([{ platform: 'hackernews', lastPolledAt: expect.any(String), emptyPolls: 0, lastError: null, lastErrorAt: null }]);
    expect(Date.parse(polling[0].lastPolledAt)).toBeGreaterThanOrEqual(Date.parse(created.body.createdAt));
    const [schedule] = await earshot.sql<{ nextPollAt: Date }[]>`select next_poll_at from keyword_polls where keyword_id = ${created.body.id}`;
    expect(schedule.nextPollAt.getTime()).toBeGreaterThan(Date.now() + 3000 * 1000);
  });
});
