import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concurrentSearchesPerPlatform, createPlatformPollSlots, defaultConcurrentSearches } from '../jobs/poll/platform-poll-slots.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

/** A platform that takes a while to answer each search, and counts the searches it is answering at once. */
async function busyPlatform(answer: unknown): Promise<FakeUpstream & { mostAtOnce(): number }> {
  let inFlight = 0;
  let most = 0;
  const upstream = await startFakeServer(async () => {
    most = Math.max(most, ++inFlight);
    await sleep(250);
    inFlight--;
    return { body: answer };
  });
  return Object.assign(upstream, { mostAtOnce: () => most });
}

let earshot: TestEarshot;
let hackerNews: Awaited<ReturnType<typeof busyPlatform>>;
let gitHub: Awaited<ReturnType<typeof busyPlatform>>;

beforeAll(async () => {
  hackerNews = await busyPlatform({ hits: [] });
  gitHub = await busyPlatform({ total_count: 0, items: [] });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url, EARSHOT_UPSTREAM_GITHUB: gitHub.url }, pollIntervalSeconds: 3600 });
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
  await gitHub?.close();
});

/** Twelve polls of one platform queued at once: as many as the poll queue works at a time (three batches of four). */
async function queueTwelvePolls(platform: 'hackernews' | 'github'): Promise<void> {
  const since = new Date(Date.now() - 3_600_000).toISOString();
  for (let i = 0; i < 12; i++) {
    await earshot.sendJob('poll', { platform, term: `${platform} term ${i}`, exactPhrase: false, keywordIds: [`kw_${platform}_${i}`], since, lookback: false });
  }
}

describe('polls of one platform at once', () => {
  it('are held to the platform\'s slots in a worker: four searches of Hacker News in flight at most, twelve polls queued', async () => {
    await queueTwelvePolls('hackernews');
    await eventually(async () => hackerNews.requests.length, (count) => count === 12);
    expect({ requests: hackerNews.requests.length, mostAtOnce: hackerNews.mostAtOnce() }).toEqual({ requests: 12, mostAtOnce: defaultConcurrentSearches });
  });

  it('one GitHub poll at a time, its three searches (issues, pull requests, repositories) side by side', async () => {
    await queueTwelvePolls('github');
    await eventually(async () => gitHub.requests.length, (count) => count === 36, 30_000);
    expect({ requests: gitHub.requests.length, mostAtOnce: gitHub.mostAtOnce() }).toEqual({ requests: 36, mostAtOnce: 3 * concurrentSearchesPerPlatform.github! });
  }, 40_000);
});

describe('a look-back waiting for a slot', () => {
  it('goes before the regular polls already waiting', async () => {
    const slots = createPlatformPollSlots({ github: 1 });
    const order: string[] = [];
    let finishFirst!: () => void;
    const first = slots.run('github', false, () => new Promise<void>((resolve) => (finishFirst = resolve)).then(() => void order.push('running')));
    const regular = slots.run('github', false, async () => void order.push('regular'));
    const lookback = slots.run('github', true, async () => void order.push('look-back'));
    finishFirst();
    await Promise.all([first, regular, lookback]);
    expect(order).toEqual(['running', 'look-back', 'regular']);
  });
});
