import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

type Resource = Record<string, unknown>;

const thumbnails = (base: string) => ({
  default: { url: `${base}/default.jpg`, width: 120, height: 90 },
  medium: { url: `${base}/mqdefault.jpg`, width: 320, height: 180 },
  high: { url: `${base}/hqdefault.jpg`, width: 480, height: 360 },
});

export interface YouTubeVideo extends Resource {
  id: string;
  snippet: { publishedAt: string; channelId: string; title: string; description: string; channelTitle: string } & Resource;
}

export function youTubeVideo(video: { id: string; channel: YouTubeChannel; title: string; description: string; publishedAt: Date; defaultAudioLanguage?: string }): YouTubeVideo {
  return {
    kind: 'youtube#video',
    etag: `etag-${video.id}`,
    id: video.id,
    snippet: {
      publishedAt: video.publishedAt.toISOString().replace('.000Z', 'Z'),
      channelId: video.channel.id,
      title: video.title,
      description: video.description,
      thumbnails: thumbnails(`https://i.ytimg.com/vi/${video.id}`),
      channelTitle: video.channel.snippet.title,
      tags: ['monitoring'],
      categoryId: '28',
      liveBroadcastContent: 'none',
      ...(video.defaultAudioLanguage ? { defaultAudioLanguage: video.defaultAudioLanguage } : {}),
      localized: { title: video.title, description: video.description },
    },
  };
}

export interface YouTubeChannel extends Resource {
  id: string;
  snippet: { title: string } & Resource;
}

export function youTubeChannel(channel: { id: string; title: string; handle?: string; subscribers?: number }): YouTubeChannel {
  const hidden = channel.subscribers === undefined;
  return {
    kind: 'youtube#channel',
    etag: `etag-${channel.id}`,
    id: channel.id,
    snippet: {
      title: channel.title,
      description: `${channel.title} on YouTube`,
      ...(channel.handle ? { customUrl: `@${channel.handle}` } : {}),
      publishedAt: '2016-02-10T17:00:00Z',
      thumbnails: thumbnails(`https://yt3.ggpht.com/${channel.id}`),
      localized: { title: channel.title, description: `${channel.title} on YouTube` },
      country: 'US',
    },
    statistics: { viewCount: '123456', ...(hidden ? {} : { subscriberCount: String(channel.subscribers) }), hiddenSubscriberCount: hidden, videoCount: '42' },
  };
}

export interface YouTubeCommentFixture {
  id: string;
  text: string;
  author: string;
  authorChannelId: string;
  publishedAt: Date;
}

function comment(videoId: string, fixture: YouTubeCommentFixture, parentId?: string): Resource {
  const stamp = fixture.publishedAt.toISOString().replace('.000Z', 'Z');
  return {
    kind: 'youtube#comment',
    etag: `etag-${fixture.id}`,
    id: fixture.id,
    snippet: {
      channelId: 'UCvideoOwner',
      videoId,
      textDisplay: escapeHtml(fixture.text),
      textOriginal: fixture.text,
      ...(parentId ? { parentId } : {}),
      authorDisplayName: `@${fixture.author}`,
      authorProfileImageUrl: `https://yt3.ggpht.com/ytc/${fixture.authorChannelId}=s48-c-k-c0x00ffffff-no-rj`,
      authorChannelUrl: `http://www.youtube.com/@${fixture.author}`,
      authorChannelId: { value: fixture.authorChannelId },
      canRate: true,
      viewerRating: 'none',
      likeCount: 0,
      publishedAt: stamp,
      updatedAt: stamp,
    },
  };
}

export interface YouTubeCommentThread extends Resource {
  snippet: { videoId: string; topLevelComment: Resource } & Resource;
}

/** A thread with its top-level comment and the replies the API embeds. */
export function youTubeCommentThread(videoId: string, top: YouTubeCommentFixture, replies: YouTubeCommentFixture[] = []): YouTubeCommentThread {
  return {
    kind: 'youtube#commentThread',
    etag: `etag-thread-${top.id}`,
    id: top.id,
    snippet: { channelId: 'UCvideoOwner', videoId, topLevelComment: comment(videoId, top), canReply: true, totalReplyCount: replies.length, isPublic: true },
    ...(replies.length ? { replies: { comments: replies.map((reply) => comment(videoId, reply, top.id)) } } : {}),
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Page tokens look like YouTube's and carry the offset. */
const pageToken = (offset: number) => `CA${Buffer.from(String(offset)).toString('base64url')}`;
const offsetOf = (token: string | null) => (token ? Number(Buffer.from(token.slice(2), 'base64url').toString()) : 0);

const googleError = (status: number, reason: string, message: string, domain = 'youtube.parameter') => ({
  status,
  body: { error: { code: status, message, errors: [{ message, domain, reason }] } },
});

export interface FakeYouTubeFixtures {
  videos: YouTubeVideo[];
  channels: YouTubeChannel[];
  commentThreads?: YouTubeCommentThread[];
  /** The key requests must carry; default any. */
  apiKey?: string;
}

export interface FakeYouTube extends FakeUpstream {
  /** Every later call answers 403 `quotaExceeded`, as after 10,000 units in a day. */
  exhaustQuota(): void;
}

/**
 * The Data API v3: `search` (snippets with HTML-escaped, shortened
 * descriptions, as the real one sends), `videos`, `channels` and
 * `commentThreads`, each paged by `pageToken` where the real one is.
 */
export async function startFakeYouTube(fixtures: FakeYouTubeFixtures, options: FakeServerOptions = {}): Promise<FakeYouTube> {
  let quotaExhausted = false;
  const fake = await startFakeServer((request) => {
    if (request.method !== 'GET' || !request.path.startsWith('/youtube/v3/')) return null;
    const { query } = request;
    const key = query.get('key');
    if (!key) return googleError(403, 'forbidden', 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', 'global');
    if (fixtures.apiKey && key !== fixtures.apiKey) return googleError(400, 'badRequest', 'API key not valid. Please pass a valid API key.', 'global');
    if (quotaExhausted) return googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota');
    const maxResults = Number(query.get('maxResults') ?? 5);
    const resource = request.path.slice('/youtube/v3/'.length);
    const parts = (query.get('part') ?? '').split(',');
    const ids = (query.get('id') ?? '').split(',').filter(Boolean);

    if (resource === 'search') {
      if (!(maxResults >= 0 && maxResults <= 50)) return googleError(400, 'invalidValue', 'Invalid value for maxResults');
      if (query.get('type') !== 'video' || query.get('order') !== 'date' || !parts.includes('snippet')) return googleError(400, 'invalidValue', 'fake: part=snippet, type=video, order=date expected');
      const after = query.get('publishedAfter');
      const found = fixtures.videos
        .filter((video) => !after || new Date(video.snippet.publishedAt) >= new Date(after))
        .filter((video) => matchesSearch(`${video.snippet.title} ${video.snippet.description}`, query.get('q') ?? ''))
        .sort((a, b) => b.snippet.publishedAt.localeCompare(a.snippet.publishedAt));
      const offset = offsetOf(query.get('pageToken'));
      const items = found.slice(offset, offset + maxResults).map((video) => ({
        kind: 'youtube#searchResult',
        etag: `etag-search-${video.id}`,
        id: { kind: 'youtube#video', videoId: video.id },
        snippet: {
          publishedAt: video.snippet.publishedAt,
          channelId: video.snippet.channelId,
          title: escapeHtml(video.snippet.title),
          description: escapeHtml(video.snippet.description.slice(0, 160)),
          thumbnails: video.snippet.thumbnails,
          channelTitle: video.snippet.channelTitle,
          liveBroadcastContent: 'none',
          publishTime: video.snippet.publishedAt,
        },
      }));
      const more = offset + maxResults < found.length;
      return {
        body: {
          kind: 'youtube#searchListResponse',
          etag: 'etag-search',
          ...(more ? { nextPageToken: pageToken(offset + maxResults) } : {}),
          regionCode: 'US',
          pageInfo: { totalResults: found.length, resultsPerPage: maxResults },
          items,
        },
      };
    }
    if (resource === 'videos' || resource === 'channels') {
      if (ids.length > 50) return googleError(400, 'invalidValue', 'Too many ids');
      const pool: Resource[] = resource === 'videos' ? fixtures.videos : fixtures.channels;
      const items = pool
        .filter((item) => ids.includes(item.id as string))
        .map((item) => Object.fromEntries(Object.entries(item).filter(([field]) => ['kind', 'etag', 'id', ...parts].includes(field))));
      return { body: { kind: `youtube#${resource === 'videos' ? 'video' : 'channel'}ListResponse`, etag: `etag-${resource}`, pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items } };
    }
    if (resource === 'commentThreads') {
      if (!(maxResults >= 1 && maxResults <= 100)) return googleError(400, 'invalidValue', 'Invalid value for maxResults');
      const videoId = query.get('videoId');
      if (!fixtures.videos.some((video) => video.id === videoId)) return googleError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
      const threads = (fixtures.commentThreads ?? [])
        .filter((thread) => thread.snippet.videoId === videoId)
        .sort((a, b) => String((b.snippet.topLevelComment.snippet as Resource).publishedAt).localeCompare(String((a.snippet.topLevelComment.snippet as Resource).publishedAt)))
        .map((thread) => (parts.includes('replies') ? thread : { ...thread, replies: undefined }));
      const offset = offsetOf(query.get('pageToken'));
      const more = offset + maxResults < threads.length;
      return { body: { kind: 'youtube#commentThreadListResponse', etag: 'etag-threads', ...(more ? { nextPageToken: pageToken(offset + maxResults) } : {}), pageInfo: { totalResults: threads.length, resultsPerPage: maxResults }, items: threads.slice(offset, offset + maxResults) } };
    }
    return null;
  }, options);
  return { ...fake, exhaustQuota: () => void (quotaExhausted = true) };
}
