import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;
/** Bluesky and GitHub as platforms out of reach: every request is taken and never answered. */
const heldRequests: { path: string; response: ServerResponse }[] = [];
const silentPlatforms = createServer((request, response) => heldRequests.push({ path: request.url ?? '', response }));

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({
    hits: [hackerNewsStory({ id: 501, title: 'Earshot heard us on Hacker News', createdAt: new Date(Date.now() - 2 * 86_400_000) })],
  });
  await new Promise<void>((resolve) => silentPlatforms.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silentPlatforms.address() as AddressInfo).port}`;
  // An hour between regular polls: within the test only the look-back reads the platform.
  earshot = await startTestEarshot({
    env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_UPSTREAM_BLUESKY: `${silentUrl}/bluesky`, EARSHOT_UPSTREAM_GITHUB: `${silentUrl}/github` },
    pollIntervalSeconds: 3600,
  });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  for (const { response } of heldRequests) response.destroy();
  silentPlatforms.closeAllConnections();
  await new Promise((resolve) => silentPlatforms.close(resolve));
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

  // Polls of one batch ran one after another, and the next batch waited for the last: a platform that never answers (three 10 s attempts) held the look-back of every other.
  it('is not held up by platforms that do not answer: they are waited for at once, and the answering platform\'s posts arrive meanwhile', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot heard', platforms: ['bluesky', 'hackernews', 'github'] } });
    expect(created.status).toBe(201);
    const stored = async () => (await earshot.sql<{ n: number }[]>`select count(*)::int as n from mentions where keyword_id = ${created.body.id}`)[0].n;
    await eventually(stored, (count) => count > 0, 8000);
    const waitedFor = async () => new Set(heldRequests.filter(({ response }) => !response.writableEnded).map(({ path }) => path.split('/')[1]));
    expect([...(await eventually(waitedFor, (platforms) => platforms.size === 2, 8000))].sort()).toEqual(['bluesky', 'github']);
  });
});
