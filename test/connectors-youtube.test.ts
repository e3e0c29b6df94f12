import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { UpstreamConfigurationError, UpstreamError } from '../runtime/upstream-http.ts';
import { createYouTubeConnector } from '../jobs/connectors/youtube.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type FakeYouTubeFixtures, startFakeYouTube, youTubeChannel, youTubeCommentThread, youTubeVideo } from './fake-upstreams/youtube.ts';

const since = new Date('2025-03-01T00:00:00.000Z');
const at = (hours: number) => new Date(since.getTime() + hours * 3_600_000);

const channel = youTubeChannel({ id: 'UCearshotDemo0000000001', title: 'Dev & Ops Weekly', handle: 'devopsweekly', subscribers: 48_200 });
const quietChannel = youTubeChannel({ id: 'UCquiet00000000000000002', title: 'Quiet Channel' });
const longDescription = `Chapters below. We try Earshot's "live" alerts & the webhook.\n\n${'Filler text. '.repeat(20)}\nLinks: https://earshot.example/yt and https://github.com/acme/demo`;
const review = youTubeVideo({ id: 'dQw4w9WgXcQ', channel, title: 'Earshot review: <is it worth it?>', description: longDescription, publishedAt: at(12), defaultAudioLanguage: 'en-GB' });
const short = youTubeVideo({ id: 'abcDEF12345', channel: quietChannel, title: 'earshot in 60 seconds', description: '', publishedAt: at(2) });

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(fixtures: FakeYouTubeFixtures, env: Record<string, string> = { EARSHOT_YOUTUBE_API_KEY: 'AIza-test' }) {
  const fake = await startFakeYouTube({ apiKey: 'AIza-test', ...fixtures });
  fakes.push(fake);
  return { fake, connector: createYouTubeConnector({ EARSHOT_UPSTREAM_YOUTUBE: fake.url, ...env }, { retry: fastRetry }) };
}

describe('YouTube connector', () => {
  it('searches videos by date since the look-back, then reads full videos and their channels', async () => {
    const { fake, connector } = await connectorWith({ videos: [review, short], channels: [channel, quietChannel] });
    await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 200 });
    expect(fake.requests.map((request) => [request.path, Object.fromEntries(request.query)])).toEqual([
      ['/youtube/v3/search', { part: 'snippet', q: 'earshot', type: 'video', order: 'date', publishedAfter: '2025-03-01T00:00:00.000Z', maxResults: '50', key: 'AIza-test' }],
      ['/youtube/v3/videos', { part: 'snippet', id: 'dQw4w9WgXcQ,abcDEF12345', maxResults: '50', key: 'AIza-test' }],
      ['/youtube/v3/channels', { part: 'snippet,statistics', id: 'UCearshotDemo0000000001,UCquiet00000000000000002', maxResults: '50', key: 'AIza-test' }],
    ]);
  });

  it('maps a video with its full description, channel handle, avatar and subscribers', async () => {
    const { connector } = await connectorWith({ videos: [review, short], channels: [channel, quietChannel] });
    expect(await connector.search({ term: 'earshot', exactPhrase: false, since })).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'youtube',
          externalId: 'dQw4w9WgXcQ',
          url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          text: `Earshot review: <is it worth it?>\n\n${longDescription}`,
          title: 'Earshot review: <is it worth it?>',
          publishedAt: at(12),
          replyTo: null,
          links: ['https://earshot.example/yt', 'https://github.com/acme/demo'],
          author: {
            platformId: 'UCearshotDemo0000000001',
            name: 'Dev & Ops Weekly',
            handle: 'devopsweekly',
            url: 'https://www.youtube.com/@devopsweekly',
            avatarUrl: 'https://yt3.ggpht.com/UCearshotDemo0000000001/default.jpg',
            followers: 48_200,
          },
          language: 'en',
        },
        {
          platform: 'youtube',
          externalId: 'abcDEF12345',
          url: 'https://www.youtube.com/watch?v=abcDEF12345',
          text: 'earshot in 60 seconds',
          title: 'earshot in 60 seconds',
          publishedAt: at(2),
          replyTo: null,
          links: [],
          author: {
            platformId: 'UCquiet00000000000000002',
            name: 'Quiet Channel',
            handle: 'UCquiet00000000000000002',
            url: 'https://www.youtube.com/channel/UCquiet00000000000000002',
            avatarUrl: 'https://yt3.ggpht.com/UCquiet00000000000000002/default.jpg',
            followers: null,
          },
          language: null,
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('maps search results from their own snippets when videos.list and channels.list are not served', async () => {
    const fake = await startFakeServer((request) => request.path === '/youtube/v3/search'
      ? { body: { kind: 'youtube#searchListResponse', items: [
        { kind: 'youtube#searchResult', id: { kind: 'youtube#channel', channelId: 'UCother' } },
        { kind: 'youtube#searchResult', id: { kind: 'youtube#video', videoId: 'vid00001' }, snippet: { publishedAt: '2025-03-01T02:00:00Z', channelId: 'UCabc', title: 'Earshot review &quot;2025&quot;', description: 'All about Earshot &amp; alerts', channelTitle: 'Gina' } },
      ] } }
      : null);
    fakes.push(fake);
    const page = await createYouTubeConnector({ EARSHOT_UPSTREAM_YOUTUBE: fake.url, EARSHOT_YOUTUBE_API_KEY: 'k' }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(fake.requests.map((request) => request.path)).toEqual(['/youtube/v3/search', '/youtube/v3/videos', '/youtube/v3/channels']);
    expect(page).toEqual({
      nextCursor: null,
      posts: [expect.objectContaining({
        externalId: 'vid00001',
        url: 'https://www.youtube.com/watch?v=vid00001',
        text: 'Earshot review "2025"\n\nAll about Earshot & alerts',
        publishedAt: at(2),
        author: expect.objectContaining({ platformId: 'UCabc', name: 'Gina', url: 'https://www.youtube.com/channel/UCabc' }),
      })],
    });
  });

  it('keeps the search results that parse and reads a publishedAt without an offset as UTC', async () => {
    const fake = await startFakeServer((request) => request.path === '/youtube/v3/search'
      ? { body: { kind: 'youtube#searchListResponse', items: [
        { kind: 'youtube#searchResult', snippet: { publishedAt: '2025-03-01T03:00:00Z', channelId: 'UCabc', title: 'Earshot without an id', description: '', channelTitle: 'Gina' } },
        { kind: 'youtube#searchResult', id: { kind: 'youtube#video', videoId: 'vid00002' }, snippet: { publishedAt: '2025-03-01T02:00:00', channelId: 'UCabc', title: 'Earshot at local time', description: '', channelTitle: 'Gina' } },
      ] } }
      : null);
    fakes.push(fake);
    const page = await createYouTubeConnector({ EARSHOT_UPSTREAM_YOUTUBE: fake.url, EARSHOT_YOUTUBE_API_KEY: 'k' }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => [post.externalId, post.publishedAt])).toEqual([['vid00002', at(2)]]);
  });

  it('follows pageToken', async () => {
    const videos = [1, 2, 3].map((n) => youTubeVideo({ id: `vid${n}`, channel, title: `earshot ${n}`, description: 'd', publishedAt: at(10 - n) }));
    const { fake, connector } = await connectorWith({ videos, channels: [channel] });
    const first = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2 });
    const second = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor: first.nextCursor });
    expect([...first.posts, ...second.posts].map((post) => post.externalId)).toEqual(['vid1', 'vid2', 'vid3']);
    expect(second.nextCursor).toBeNull();
    expect(fake.requests[3].query.get('pageToken')).toBe(first.nextCursor);
  });

  it('refuses to run without EARSHOT_YOUTUBE_API_KEY, calling nothing', async () => {
    const { fake, connector } = await connectorWith({ videos: [review], channels: [channel] }, {});
    const failure = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamConfigurationError);
    expect(failure).toMatchObject({ platform: 'youtube', variable: 'EARSHOT_YOUTUBE_API_KEY' });
    await expect(connector.comments!({ externalId: review.id, url: 'u' }, since, 5)).rejects.toBeInstanceOf(UpstreamConfigurationError);
    expect(fake.requests).toHaveLength(0);
  });

  it('fails at once with the wait until the quota returns when it is spent', async () => {
    const { fake, connector } = await connectorWith({ videos: [review], channels: [channel] });
    fake.exhaustQuota();
    const failure = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 403 });
    expect((failure as UpstreamError).retryAfterSeconds).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
  });

  it('reads comment threads and their embedded replies, newest first, since a time', async () => {
    const threads = [
      youTubeCommentThread(review.id, { id: 'UgxTop1', text: 'Is Earshot free? See https://earshot.example/pricing', author: 'curious', authorChannelId: 'UCcurious', publishedAt: at(13) }, [
        { id: 'UgxTop1.reply1', text: 'No, $5 a month & worth it', author: 'fan', authorChannelId: 'UCfan', publishedAt: at(15) },
      ]),
      youTubeCommentThread(review.id, { id: 'UgxTop0', text: 'first', author: 'early', authorChannelId: 'UCearly', publishedAt: at(12.5) }),
    ];
    const { fake, connector } = await connectorWith({ videos: [review], channels: [channel], commentThreads: threads });
    const read = await connector.comments!({ externalId: review.id, url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }, at(12.75), 10);
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ part: 'snippet,replies', videoId: review.id, order: 'time', maxResults: '100', textFormat: 'plainText', key: 'AIza-test' });
    expect(read).toEqual([
      {
        platform: 'youtube',
        externalId: 'UgxTop1.reply1',
        url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&lc=UgxTop1.reply1',
        text: 'No, $5 a month & worth it',
        publishedAt: at(15),
        replyTo: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&lc=UgxTop1',
        links: [],
        author: { platformId: 'UCfan', name: '@fan', handle: 'fan', url: 'http://www.youtube.com/@fan', avatarUrl: 'https://yt3.ggpht.com/ytc/UCfan=s48-c-k-c0x00ffffff-no-rj', followers: null },
      },
      expect.objectContaining({ externalId: 'UgxTop1', replyTo: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', links: ['https://earshot.example/pricing'] }),
    ]);
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith({ videos: [review, short], channels: [channel, quietChannel] });
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
