import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

const clock = manualClock(new Date());
let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;

beforeAll(async () => {
  // Every search stalls 8 s: the poll job stays in flight while the test moves the clock on.
  hackerNews = await startFakeHackerNews({ hits: [] }, { slowMs: 8000 });
  hackerNews.failNext('slow', 1000);
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 1 }, { clock });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

const regularPollJobs = async (keywordId: string) =>
  Number(
    (
      await earshot.sql<{ count: string }[]>`
        select count(*) from pgboss.job
        where name = 'poll' and data->'keywordIds' ? ${keywordId} and not (data->>'lookback')::boolean`
    )[0].count,
  );

describe('the poll lease', () => {
  // With a lease of a minute, a poll still waiting for its worker was sent again every minute, and a backlog grew with copies.
  it('sends a poll once while its job is in flight, however long the queue takes', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Leased poll', platforms: ['hackernews'] } });
    expect(created.status).toBe(201);
    clock.advance(2_000);
    expect(await eventually(() => regularPollJobs(created.body.id), (count) => count >= 1)).toBe(1);
    // Past a minute-long lease, with the first search still stalled upstream: several scheduler passes, one a second.
    clock.advance(5 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await regularPollJobs(created.body.id)).toBe(1);
  });
});
