import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPollOutcome } from '../subgraphs/keywords/index.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { startFakeYouTube } from './fake-upstreams/youtube.ts';
import { eventually, patiently, recordingLogger, startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let youTube: FakeUpstream;
let key: string;
let recorded: ReturnType<typeof recordingLogger>;

const youTubeReason = 'EARSHOT_YOUTUBE_API_KEY is not set; the YouTube Data API answers no call without an API key';
const backingOff = 'poll failed; backing off';

beforeAll(async () => {
  hackerNews = await startFakeHackerNews({
    hits: [hackerNewsStory({ id: 301, title: 'Earshot watches the web for your name', createdAt: new Date(Date.now() - 3_600_000) })],
  });
  youTube = await startFakeYouTube({ videos: [], channels: [] });
  recorded = recordingLogger();
  earshot = await startTestEarshot(
    { env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_UPSTREAM_YOUTUBE: youTube.url }, pollIntervalSeconds: 1 },
    { log: recorded.log },
  );
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
  await youTube?.close();
});

// Patiently: on a loaded machine the first scoring (the classifier's models loading in this process) can hold a request past its deadline.
const pollingOf = async (keywordId: string) => (await patiently(() => earshot.rest('GET', `/v1/keywords/${keywordId}`, { key }))).body.polling;

async function createKeyword(term: string, platforms: string[]): Promise<string> {
  const response = await earshot.rest('POST', '/v1/keywords', { key, body: { term, platforms } });
  expect(response.status).toBe(201);
  return response.body.id;
}

describe('polling you can see', () => {
  it('logs one table of the platforms at start-up: enabled, and disabled with the setting each lacks', () => {
    const tables = recorded.lines.filter((line) => line.message.startsWith('platforms: '));
    expect(tables).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        message: 'platforms: 9 enabled, 8 disabled',
        worker: 'poll-scheduler',
        enabled: ['bluesky', 'hackernews', 'github', 'stackoverflow', 'devto', 'reddit', 'news', 'appstore', 'rss'],
        disabled: {
          x: 'EARSHOT_X_BEARER_TOKEN is not set; the X API answers no search without a bearer token',
          youtube: youTubeReason,
          linkedin: 'EARSHOT_UPSTREAM_LINKEDIN is not set; LinkedIn has no open search API; point it at a search provider that answers the contract in jobs/connectors/provider-search.ts',
          tiktok: 'EARSHOT_UPSTREAM_TIKTOK is not set; TikTok has no open search API; point it at a search provider that answers the contract in jobs/connectors/provider-search.ts',
          instagram: 'EARSHOT_UPSTREAM_INSTAGRAM is not set; Instagram has no open search API; point it at a search provider that answers the contract in jobs/connectors/provider-search.ts',
          googleplay: 'EARSHOT_UPSTREAM_GOOGLEPLAY is not set; Google Play has no public reviews API; point it at a reviews provider that answers the contract in jobs/connectors/googleplay.ts',
          trustpilot: 'EARSHOT_TRUSTPILOT_API_KEY is not set; the Trustpilot API answers only requests with an API key',
          googlemaps: 'EARSHOT_GOOGLE_MAPS_API_KEY is not set; the Places API answers only requests with an API key',
        },
      },
    ]);
  });

  it('never polls a platform without its credentials, and says why on the keyword instead of in the log', async () => {
    const keywordId = await createKeyword('Earshot', ['youtube', 'hackernews']);
    const polling = await eventually(
      () => pollingOf(keywordId),
      (entries) => entries.length === 2 && entries.every((entry: { lastPolledAt: string | null; lastError: string | null }) => entry.lastPolledAt !== null || entry.lastError !== null),
    );
    expect(polling).toEqual([
      { platform: 'hackernews', lastPolledAt: expect.any(String), emptyPolls: expect.any(Number), lastError: null, lastErrorAt: null },
      { platform: 'youtube', lastPolledAt: null, emptyPolls: 0, lastError: youTubeReason, lastErrorAt: expect.any(String) },
    ]);
    const markedAt = polling[1].lastErrorAt;
    // Several passes of the scheduler later (one a second here), YouTube is still untouched and said once.
    await eventually(() => pollingOf(keywordId), (entries) => entries[0].emptyPolls >= 2);
    expect(youTube.requests).toEqual([]);
    expect((await pollingOf(keywordId))[1]).toEqual({ platform: 'youtube', lastPolledAt: null, emptyPolls: 0, lastError: youTubeReason, lastErrorAt: markedAt });
    expect(recorded.lines.filter((line) => JSON.stringify(line).includes('youtube'))).toHaveLength(1);
  });

  it('records a failing platform on the polls, backs off, logs once per back-off step for all keywords, and clears on success', async () => {
    hackerNews.failNext('server-error', 10_000);
    const first = await createKeyword('Failing first', ['hackernews']);
    const second = await createKeyword('Failing second', ['hackernews']);
    await eventually(() => Promise.resolve(recorded.lines.filter((line) => line.message === backingOff)), (lines) => lines.length >= 2, 25_000);

    const failures = recorded.lines.filter((line) => line.message === backingOff);
    // Two keywords failed at each step: one line per step all the same.
    expect(failures.map(({ level, platform, error, backoffStep }) => ({ level, platform, error, backoffStep }))).toEqual([
      { level: 'warn', platform: 'hackernews', error: 'HTTP 500', backoffStep: 1 },
      { level: 'warn', platform: 'hackernews', error: 'HTTP 500', backoffStep: 2 },
    ]);
    // Each failure in a row doubles the wait from the 1 s base.
    for (const failure of failures) {
      const waitMs = Date.parse(failure.nextPollAt) - Date.parse(failure.time);
      expect(waitMs).toBeGreaterThan(2 ** failure.backoffStep * 1000 - 500);
      expect(waitMs).toBeLessThanOrEqual(2 ** failure.backoffStep * 1000);
    }
    for (const keywordId of [first, second]) {
      expect(await pollingOf(keywordId)).toEqual([
        { platform: 'hackernews', lastPolledAt: null, emptyPolls: 0, lastError: 'HTTP 500', lastErrorAt: expect.any(String) },
      ]);
    }

    hackerNews.recover();
    const recovered = await eventually(
      () => pollingOf(first),
      (entries) => entries[0].lastPolledAt !== null,
      25_000,
    );
    expect(recovered).toEqual([{ platform: 'hackernews', lastPolledAt: expect.any(String), emptyPolls: expect.any(Number), lastError: null, lastErrorAt: null }]);
  });

  // Its poll rows used to be written by the look-back job, so a keyword answered `polling: []` until a worker took that job.
  it("lists a new keyword's polled platforms, never polled yet, in its creation response and at once after", async () => {
    const response = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Polled from birth', platforms: ['hackernews', 'bluesky'] } });
    const unpolled = [{ platform: 'hackernews', lastPolledAt: null, emptyPolls: 0, lastError: null, lastErrorAt: null }];
    expect({ status: response.status, polling: response.body.polling }).toEqual({ status: 201, polling: unpolled });
    expect((await pollingOf(response.body.id)).map((entry: { platform: string }) => entry.platform)).toEqual(['hackernews']);
    expect((await earshot.rest('DELETE', `/v1/keywords/${response.body.id}`, { key })).status).toBe(204);
  });

  // With 32 doublings at most, a quiet keyword on a 2 s base was polled once a 64 s, and a post took over a minute to show.
  it('backs empty polls off to 32 base intervals, but to 30 s at most when the base is shorter', async () => {
    const keywordId = await createKeyword('Quiet for long', ['youtube']);
    const waitAfterQuietPolls = async (baseIntervalSeconds: number) => {
      await earshot.sql`update keyword_polls set empty_polls = 10 where keyword_id = ${keywordId}`;
      const now = new Date();
      await recordPollOutcome(earshot.sql, { platform: 'youtube', keywordIdsWithFinds: [], keywordIds: [keywordId], now, baseIntervalSeconds });
      const [poll] = await earshot.sql<{ nextPollAt: Date }[]>`select next_poll_at from keyword_polls where keyword_id = ${keywordId}`;
      return (poll.nextPollAt.getTime() - now.getTime()) / 1000;
    };
    expect(await waitAfterQuietPolls(2)).toBe(30);
    expect(await waitAfterQuietPolls(0.5)).toBe(16);
    expect(await waitAfterQuietPolls(300)).toBe(9600);
  });

  it('polls a platform once a restart brings its credentials', async () => {
    const keywordId = await createKeyword('Later on YouTube', ['youtube']);
    await eventually(() => pollingOf(keywordId), (entries) => entries[0]?.lastError === youTubeReason);
    await earshot.stop();
    recorded = recordingLogger();
    earshot = await startTestEarshot(
      {
        env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_UPSTREAM_YOUTUBE: youTube.url, EARSHOT_YOUTUBE_API_KEY: 'yt-key' },
        pollIntervalSeconds: 1,
      },
      { databaseUrl: earshot.databaseUrl, log: recorded.log },
    );
    const polled = await eventually(() => pollingOf(keywordId), (entries) => entries[0].lastPolledAt !== null);
    expect(polled).toEqual([{ platform: 'youtube', lastPolledAt: expect.any(String), emptyPolls: expect.any(Number), lastError: null, lastErrorAt: null }]);
    expect(youTube.requests.length).toBeGreaterThan(0);
    expect(youTube.requests.every((request) => request.query.get('key') === 'yt-key')).toBe(true);
    const table = recorded.lines.find((line) => line.message.startsWith('platforms: '));
    expect(table?.enabled).toContain('youtube');
    expect(Object.keys(table?.disabled ?? {})).not.toContain('youtube');
  });
});
