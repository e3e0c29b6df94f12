import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';
import { blueskyPost, startFakeBluesky } from './fake-upstreams/bluesky.ts';
import { type FakeJetstream, jetstreamPostEvent, startFakeJetstream } from './fake-upstreams/jetstream.ts';
import { createTestDatabase, startTestEarshot, type TestEarshot, eventually, allMentionsOf } from './harness.ts';

let jetstream: FakeJetstream;
let bluesky: FakeUpstream;
let databaseUrl: string;
const running: TestEarshot[] = [];


const post = (rkey: string, text: string, timeUs: number) =>
  jetstreamPostEvent({
    did: 'did:plc:alice00000000000000000000',
    rkey,
    timeUs,
    record: { $type: 'app.bsky.feed.post', text, createdAt: new Date(timeUs / 1000).toISOString(), langs: ['en'] },
  });

const start = () =>
  startTestEarshot(
    { blueskyLive: true, pollIntervalSeconds: 1, env: { EARSHOT_UPSTREAM_JETSTREAM: jetstream.url, EARSHOT_UPSTREAM_BLUESKY: bluesky.url } },
    { databaseUrl },
  ).then((earshot) => {
    running.push(earshot);
    return earshot;
  });

beforeAll(async () => {
  jetstream = await startFakeJetstream();
  bluesky = await startFakeBluesky({ posts: [] });
  databaseUrl = await createTestDatabase();
});
afterAll(async () => {
  for (const earshot of running) await earshot.stop().catch(() => {});
  await jetstream?.close();
  await bluesky?.close();
});

describe('Bluesky live stream', () => {
  it('turns live posts into mentions and resumes from its stored cursor after a restart, without loss or duplicates', async () => {
    let earshot = await start();
    const { apiKey: key } = await earshot.createWorkspace('Acme');
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Earshot', platforms: ['bluesky'] } });
    const list = async () => ({ body: { data: await allMentionsOf(earshot, key, keyword.body.id) } });
    const now = Date.now() * 1000;

    // The live matcher picks the keyword up within a poll interval.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    jetstream.publish(post('3kaaa1', 'Trying Earshot for our launch', now), post('3kaaa2', 'unrelated chatter', now + 1));
    const first = await eventually(list, (response) => response.body.data.length >= 1);
    expect(first.body.data.map((m: { post: { text: string } }) => m.post.text)).toEqual(['Trying Earshot for our launch']);

    await earshot.stop();
    running.pop();
    jetstream.publish(post('3kaaa3', 'Earshot caught this while we were down', now + 2));
    earshot = await start();
    const second = await eventually(list, (response) => response.body.data.length >= 2);
    expect(second.body.data.map((m: { post: { text: string } }) => m.post.text).sort()).toEqual([
      'Earshot caught this while we were down',
      'Trying Earshot for our launch',
    ]);
    expect(jetstream.connections.at(-1)?.get('cursor')).not.toBeNull();
  });

  // Bluesky was searched only by a new keyword's look-back: with Jetstream out of reach, a later post never arrived.
  it('searches Bluesky at each poll interval while Jetstream cannot be reached', async () => {
    const posts: ReturnType<typeof blueskyPost>[] = [];
    const searchOnly = await startFakeBluesky({ posts });
    const earshot = await startTestEarshot(
      { blueskyLive: true, pollIntervalSeconds: 1, env: { EARSHOT_UPSTREAM_JETSTREAM: 'ws://127.0.0.1:9', EARSHOT_UPSTREAM_BLUESKY: searchOnly.url } },
      { databaseUrl: await createTestDatabase() },
    );
    running.push(earshot);
    try {
      const { apiKey: key } = await earshot.createWorkspace('Acme');
      const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Stand-in', platforms: ['bluesky'] } });
      await eventually(async () => searchOnly.requests.length, (count) => count >= 1);
      posts.push(blueskyPost({ author: { did: 'did:plc:bob000000000000000000000', handle: 'bob.bsky.social' }, rkey: '3kbbb1', text: 'Stand-in found us while the stream was down', createdAt: new Date() }));
      const found = await eventually(() => allMentionsOf(earshot, key, keyword.body.id), (mentions) => mentions.length === 1, 15_000);
      expect(found.map((mention: { post: { text: string } }) => mention.post.text)).toEqual(['Stand-in found us while the stream was down']);
    } finally {
      await earshot.stop();
      running.splice(running.indexOf(earshot), 1);
      await searchOnly.close();
    }
  });
});
