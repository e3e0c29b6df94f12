import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { type HackerNewsHit, hackerNewsStory, startFakeHackerNews } from './fake-upstreams/hackernews.ts';
import { allMentionsOf, eventually, startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let hackerNews: FakeUpstream;
let key: string;
const hits: HackerNewsHit[] = [];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

beforeAll(async () => {
  hits.push(
    hackerNewsStory({ id: 601, title: 'Alpha shipped its first release', createdAt: minutesAgo(3 * 24 * 60) }),
    // Inside the hour a regular poll overlaps the one before it.
    hackerNewsStory({ id: 602, title: 'Bravado is the new name in monitoring', createdAt: minutesAgo(20) }),
  );
  hackerNews = await startFakeHackerNews({ hits });
  earshot = await startTestEarshot({ env: { EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url }, pollIntervalSeconds: 1 });
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(async () => {
  await earshot?.stop();
  await hackerNews?.close();
});

describe('renaming a keyword (spec 4.2)', () => {
  it('tracks the new term from the rename on: a post published before it is not matched, one after it is', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Alpha', platforms: ['hackernews'] } });
    const urlsOf = async () => (await allMentionsOf(earshot, key, created.body.id)).map((m: { post: { url: string } }) => m.post.url);
    await eventually(urlsOf, (urls) => urls.length === 1, 60_000);

    const renamed = await earshot.rest('PATCH', `/v1/keywords/${created.body.id}`, { key, body: { term: 'Bravado' } });
    expect(renamed.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    hits.push(hackerNewsStory({ id: 603, title: 'Bravado adds Slack alerts', createdAt: new Date() }));

    const urls = await eventually(urlsOf, (found) => found.some((url) => url.endsWith('id=603')), 60_000);
    expect(urls.sort()).toEqual(['https://news.ycombinator.com/item?id=601', 'https://news.ycombinator.com/item?id=603']);
  });
});
