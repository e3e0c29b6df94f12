import { afterEach, describe, expect, it } from 'vitest';
import { type JetstreamOptions, type JetstreamSubscription, startJetstream } from '../jobs/connectors/bluesky-jetstream.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { blueskyRecord } from './fake-upstreams/bluesky.ts';
import { type FakeJetstream, jetstreamDeleteEvent, jetstreamIdentityEvent, jetstreamPostEvent, startFakeJetstream } from './fake-upstreams/jetstream.ts';
import { recordingLogger } from './harness.ts';

const t0 = 1_741_000_000_000_000;
const second = 1_000_000;
const did = 'did:plc:stream7author';

const numbered = (n: number) =>
  jetstreamPostEvent({ did, rkey: `3lpost${n}`, timeUs: t0 + n * second, record: blueskyRecord({ text: `earshot update ${n}`, createdAt: new Date((t0 + n * second) / 1000) }) });

const running: { fake: FakeJetstream; subscription?: JetstreamSubscription }[] = [];
afterEach(async () => {
  for (const { fake, subscription } of running.splice(0)) {
    await subscription?.stop();
    await fake.close();
  }
});

async function until(condition: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the stream');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function subscribe(fake: FakeJetstream, options: Partial<JetstreamOptions> = {}) {
  const received: { post: NormalizedPost; timeUs: number }[] = [];
  const subscription = startJetstream({
    env: { EARSHOT_UPSTREAM_JETSTREAM: fake.url },
    backoffMs: 10,
    cursorEveryMs: 10,
    onPost: (post, timeUs) => {
      received.push({ post, timeUs });
    },
    ...options,
  });
  running.push({ fake, subscription });
  return { received, subscription };
}

describe('Bluesky Jetstream client', () => {
  it('turns created posts into normalized posts and passes over every other event', async () => {
    const linked = blueskyRecord({
      text: 'Earshot caught this: example.com/launch',
      links: [{ text: 'example.com/launch', uri: 'https://example.com/launch?ref=bsky' }],
      createdAt: new Date('2025-03-03T10:00:00.000Z'),
      langs: ['fr'],
    });
    const reply = { ...blueskyRecord({ text: 'Same here', createdAt: new Date('2025-03-03T10:00:01.000Z') }), reply: { root: { uri: `at://${did}/app.bsky.feed.post/3lroot`, cid: 'bafyroot' }, parent: { uri: 'at://did:plc:other/app.bsky.feed.post/3lparent', cid: 'bafyparent' } } };
    const undated = { ...blueskyRecord({ text: 'no date', createdAt: new Date(0) }), createdAt: 'yesterday' };
    const fake = await startFakeJetstream({
      events: [
        jetstreamPostEvent({ did, rkey: '3llinked', timeUs: t0 + 1, record: linked }),
        jetstreamDeleteEvent({ did, rkey: '3lgone', timeUs: t0 + 2 }),
        jetstreamIdentityEvent({ did, handle: 'stream.example', timeUs: t0 + 3 }),
        { ...jetstreamPostEvent({ did, rkey: '3llike', timeUs: t0 + 4, record: linked }), commit: { rev: 'r', operation: 'create', collection: 'app.bsky.feed.like', rkey: '3llike' } },
        jetstreamPostEvent({ did, rkey: '3lreply', timeUs: t0 + 5, record: reply }),
        jetstreamPostEvent({ did, rkey: '3lundated', timeUs: t0 + 6_000, record: undated }),
      ],
    });
    const cursors: number[] = [];
    const { received, subscription } = await subscribe(fake, { cursor: t0, overlapUs: 0, onCursor: (timeUs) => void cursors.push(timeUs) });
    await until(() => received.length === 3);
    expect(fake.connections[0].getAll('wantedCollections')).toEqual(['app.bsky.feed.post']);
    expect(fake.connections[0].get('cursor')).toBe(String(t0));
    const author = { platformId: did, name: did, handle: did, url: `https://bsky.app/profile/${did}`, avatarUrl: null, followers: null };
    expect(received).toEqual([
      {
        timeUs: t0 + 1,
        post: {
          platform: 'bluesky',
          externalId: `at://${did}/app.bsky.feed.post/3llinked`,
          url: `https://bsky.app/profile/${did}/post/3llinked`,
          text: 'Earshot caught this: example.com/launch',
          publishedAt: new Date('2025-03-03T10:00:00.000Z'),
          replyTo: null,
          links: ['https://example.com/launch?ref=bsky'],
          author,
          language: 'fr',
        },
      },
      {
        timeUs: t0 + 5,
        post: {
          platform: 'bluesky',
          externalId: `at://${did}/app.bsky.feed.post/3lreply`,
          url: `https://bsky.app/profile/${did}/post/3lreply`,
          text: 'Same here',
          publishedAt: new Date('2025-03-03T10:00:01.000Z'),
          replyTo: 'https://bsky.app/profile/did:plc:other/post/3lparent',
          links: [],
          author,
          language: 'en',
        },
      },
      {
        timeUs: t0 + 6_000,
        post: expect.objectContaining({ externalId: `at://${did}/app.bsky.feed.post/3lundated`, publishedAt: new Date((t0 + 6_000) / 1000) }),
      },
    ]);
    await subscription.stop();
    expect(cursors.at(-1)).toBe(t0 + 6_000);
    expect(subscription.cursor()).toBe(t0 + 6_000);
  });

  it('reconnects after a drop and resumes from its cursor without losing or repeating a post', async () => {
    const fake = await startFakeJetstream();
    const overlapUs = 1.5 * second;
    const { received } = await subscribe(fake, { overlapUs });
    await until(() => fake.connections.length === 1);
    expect(fake.connections[0].get('cursor')).toBeNull();
    fake.dropAfter(3);
    fake.publish(...[1, 2, 3, 4, 5, 6].map(numbered));
    await until(() => received.length >= 6 && fake.connections.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.connections[1].get('cursor')).toBe(String(t0 + 3 * second - overlapUs));
    expect(received.map(({ post }) => post.text)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `earshot update ${n}`));
    fake.publish(numbered(7));
    await until(() => received.length === 7);
  });

  it('resumes from when it first connected if it is cut before handling any event', async () => {
    const fake = await startFakeJetstream();
    const overlapUs = 1.5 * second;
    const before = Date.now() * 1000;
    const { received } = await subscribe(fake, { overlapUs });
    await until(() => fake.connections.length === 1);
    // The server sees the connection before the client sees it open, and the client takes its time then.
    await fake.heardFromClients();
    const after = Date.now() * 1000;
    fake.drop();
    await until(() => fake.connections.length === 2);
    const resumedFrom = Number(fake.connections[1].get('cursor'));
    expect(resumedFrom).toBeGreaterThanOrEqual(before - overlapUs);
    expect(resumedFrom).toBeLessThanOrEqual(after - overlapUs);
    expect(received).toEqual([]);
  });

  it('replaces a connection that stays quiet after the first wait every time, so a post after long quiet comes at once', async () => {
    const fake = await startFakeJetstream();
    const { received } = await subscribe(fake, { idleTimeoutMs: 40, backoffMs: 20, maxBackoffMs: 10_000 });
    // Doubling from 20 ms, eight quiet connections would leave the ninth more than five seconds away.
    await until(() => fake.connections.length >= 9, 2000);
    await fake.heardFromClients();
    fake.publish(numbered(1));
    await until(() => received.length === 1, 500);
    expect(received[0].post.text).toBe('earshot update 1');
  });

  it('takes a base address that already names the /subscribe endpoint', async () => {
    const fake = await startFakeJetstream({ events: [numbered(1)] });
    const { received } = await subscribe(fake, { env: { EARSHOT_UPSTREAM_JETSTREAM: `${fake.url}/subscribe` }, cursor: t0 });
    await until(() => received.length === 1);
    expect(fake.connections[0].get('wantedCollections')).toBe('app.bsky.feed.post');
  });

  it('offers a post again when its handler fails, then carries on', async () => {
    const fake = await startFakeJetstream({ events: [1, 2, 3].map(numbered) });
    const offered: string[] = [];
    let failOnce = true;
    const { subscription } = await subscribe(fake, {
      cursor: t0 + second,
      overlapUs: 0,
      onPost: (post) => {
        offered.push(post.text);
        if (post.text.endsWith('2') && failOnce) {
          failOnce = false;
          throw new Error('database unavailable');
        }
      },
    });
    await until(() => offered.length === 4);
    expect(offered).toEqual(['earshot update 1', 'earshot update 2', 'earshot update 2', 'earshot update 3']);
    expect(fake.connections.map((query) => query.get('cursor'))).toEqual([String(t0 + second), String(t0 + second)]);
    await until(() => subscription.cursor() === t0 + 3 * second);
  });

  it('backs off while Jetstream refuses it, logs that once per back-off step, and says once when it is back', async () => {
    const fake = await startFakeJetstream({ events: [numbered(1)] });
    fake.refuse(503);
    const { log, lines } = recordingLogger();
    const { received } = await subscribe(fake, { cursor: t0, overlapUs: 0, backoffMs: 10, maxBackoffMs: 80, logger: log });
    // Waits of 10, 20, 40, then 80 ms each: nine refusals take about half a second.
    await until(() => fake.refusedCount() >= 9);
    const failures = lines.filter((line) => line.message === 'jetstream connection failed; reconnecting with back-off');
    expect(failures.map((line) => [line.level, line.inMs, line.failedConnections])).toEqual([
      ['warn', 10, 1], ['warn', 20, 2], ['warn', 40, 3], ['warn', 80, 4],
    ]);
    expect(failures.map((line) => line.error)).toEqual(Array(4).fill('Unexpected server response: 503'));
    expect(failures.at(-1)!.note).toBe('at the longest wait; no more of these lines until it connects');

    fake.refuse(null);
    await until(() => received.length === 1);
    const refusals = fake.refusedCount();
    await until(() => lines.some((line) => line.message === 'jetstream connected again'));
    expect(lines.filter((line) => line.message === 'jetstream connected again')).toEqual([
      expect.objectContaining({ level: 'info', failedConnections: refusals }),
    ]);
    expect(lines.filter((line) => line.message === 'jetstream connection failed; reconnecting with back-off')).toHaveLength(4);
    expect(fake.connections.map((query) => query.get('cursor'))).toEqual([String(t0)]);
  });
});
