/**
 * YouTube through the Data API v3: `search.list` finds videos, then
 * `videos.list` gives their full descriptions (search only sends an
 * excerpt) and `channels.list` their channels' handle, avatar and
 * subscribers; `commentThreads.list` reads comments. Search costs 100
 * quota units, each list call 1.
 *
 * Environment:
 * - `EARSHOT_YOUTUBE_API_KEY`: an API key. Required: without it every call
 *   fails with `UpstreamConfigurationError`.
 * - `EARSHOT_UPSTREAM_YOUTUBE`: API base, default `https://www.googleapis.com`.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { decodeHtmlEntities, titledText, linksInText } from './post-text.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, UpstreamConfigurationError, type UpstreamResponse, upstreamBase } from '../../runtime/upstream-http.ts';
import { whenUpstreamFails } from './optional-call.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';


/** The snippet of `search.list` and of `videos.list` alike (the latter adds the languages and the whole description). */
const videoSnippet = z.object({
  publishedAt: upstreamTimestamp,
  channelId: z.string(),
  channelTitle: z.string().optional(),
  title: z.string(),
  description: z.string().default(''),
  defaultLanguage: z.string().optional(),
  defaultAudioLanguage: z.string().optional(),
});

/** Results other than videos (a channel, a playlist) have no `videoId` and are passed over. */
const searchListResponse = z.object({
  nextPageToken: z.string().nullish(),
  items: upstreamItems(z.object({ id: z.object({ videoId: z.string().optional() }), snippet: videoSnippet.optional() })),
});

const videoListResponse = z.object({
  items: upstreamItems(z.object({ id: z.string(), snippet: videoSnippet })),
});

const channelListResponse = z.object({
  items: upstreamItems(z.object({
    id: z.string(),
    snippet: z.object({
      title: z.string(),
      customUrl: z.string().optional(),
      thumbnails: z.object({ default: z.object({ url: z.string() }).optional() }).optional(),
    }),
    statistics: z.object({ subscriberCount: z.string().optional(), hiddenSubscriberCount: z.boolean() }).optional(),
  })),
});

const commentShape = z.object({
  id: z.string(),
  snippet: z.object({
    textDisplay: z.string(),
    textOriginal: z.string().optional(),
    authorDisplayName: z.string(),
    authorProfileImageUrl: z.string().optional(),
    authorChannelUrl: z.string().optional(),
    authorChannelId: z.object({ value: z.string() }).optional(),
    parentId: z.string().optional(),
    publishedAt: upstreamTimestamp,
  }),
});

const commentThreadListResponse = z.object({
  nextPageToken: z.string().optional(),
  items: upstreamItems(z.object({
    snippet: z.object({ topLevelComment: commentShape }),
    replies: z.object({ comments: z.array(commentShape) }).optional(),
  })),
});

type Video = z.infer<typeof videoListResponse>['items'][number];
type Channel = z.infer<typeof channelListResponse>['items'][number];
type Comment = z.infer<typeof commentShape>;

const searchMaximum = 50;
const commentPagesCeiling = 5;

const videoUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;
const commentUrl = (videoId: string, commentId: string) => `${videoUrl(videoId)}&lc=${commentId}`;

/**
 * A spent daily quota (403 `quotaExceeded`) returns at midnight Pacific
 * time, taken as 08:00 UTC (an hour late in summer, never early); a
 * per-user rate limit passes within seconds.
 */
function youTubeQuotaWaitMs(response: UpstreamResponse): number | undefined {
  if (response.status !== 403) return undefined;
  const reason = /"reason":\s*"(\w+)"/.exec(response.text)?.[1];
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded') return 1000;
  if (reason !== 'quotaExceeded' && reason !== 'dailyLimitExceeded') return undefined;
  const now = new Date();
  const reset = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8);
  return (reset > now.getTime() ? reset : reset + 86_400_000) - now.getTime();
}

export function createYouTubeConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('youtube', 'https://www.googleapis.com', env, '/youtube/v3');
  const apiKey = env.EARSHOT_YOUTUBE_API_KEY;
  const unconfigured = apiKey ? undefined : new UpstreamConfigurationError('youtube', 'EARSHOT_YOUTUBE_API_KEY', 'the YouTube Data API answers no call without an API key');

  async function get<Schema extends z.ZodType>(resource: string, schema: Schema, params: Record<string, string>): Promise<z.infer<Schema>> {
    if (!apiKey) throw unconfigured;
    const url = new URL(`${base}/youtube/v3/${resource}`);
    for (const [name, value] of Object.entries({ ...params, key: apiKey })) url.searchParams.set(name, value);
    const body = await getUpstreamJson<unknown>({ platform: 'youtube', url, platformWaitMs: youTubeQuotaWaitMs, ...options.retry });
    return parseUpstreamShape('youtube', schema, body, options.logger);
  }

  return {
    platform: 'youtube',
    unconfigured,

    async search(query: SearchQuery) {
      const params: Record<string, string> = {
        part: 'snippet',
        q: searchText(query),
        type: 'video',
        order: 'date',
        publishedAfter: query.since.toISOString(),
        maxResults: String(pageSize(query, searchMaximum)),
      };
      if (query.cursor) params.pageToken = query.cursor;
      const found = await get('search', searchListResponse, params);
      const results = found.items.flatMap(({ id: { videoId }, snippet }) => (videoId ? [{ id: videoId, snippet }] : []));
      const ids = results.map((result) => result.id);
      if (!ids.length) return { posts: [], nextCursor: null };
      // Videos made private or deleted since the search was indexed are missing here and dropped.
      // Without this call (it failed, or a proxy does not serve it) the search's own snippets stand in: descriptions cut short, no languages.
      const videos = await get('videos', videoListResponse, { part: 'snippet', id: ids.join(','), maxResults: String(searchMaximum) })
        .then((list) => list.items)
        // search.list escapes its snippets' title and description as HTML; videos.list does not.
        .catch(whenUpstreamFails(() => results.flatMap(({ id, snippet }) => (snippet ? [{ id, snippet: { ...snippet, title: decodeHtmlEntities(snippet.title), description: decodeHtmlEntities(snippet.description) } }] : []))));
      const channelIds = [...new Set(videos.map((video) => video.snippet.channelId))];
      const channels = channelIds.length
        ? await get('channels', channelListResponse, { part: 'snippet,statistics', id: channelIds.join(','), maxResults: String(searchMaximum) })
          .then((list) => list.items)
          .catch(whenUpstreamFails((): Channel[] => []))
        : [];
      const channelById = new Map(channels.map((channel) => [channel.id, channel]));
      const videoById = new Map(videos.map((video) => [video.id, video]));
      const posts = ids.flatMap((id) => {
        const video = videoById.get(id);
        return video ? [videoToPost(video, channelById.get(video.snippet.channelId))] : [];
      });
      return { posts, nextCursor: found.nextPageToken ?? null };
    },

    /**
     * Top-level comments and the replies the API embeds in their threads
     * (up to five per thread), newest first.
     */
    async comments(post, since, limit) {
      const videoId = post.externalId;
      const comments: NormalizedPost[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < commentPagesCeiling; page++) {
        const params: Record<string, string> = { part: 'snippet,replies', videoId, order: 'time', maxResults: '100', textFormat: 'plainText' };
        if (pageToken) params.pageToken = pageToken;
        const threads = await get('commentThreads', commentThreadListResponse, params);
        for (const thread of threads.items) {
          comments.push(commentToPost(thread.snippet.topLevelComment, videoId), ...(thread.replies?.comments ?? []).map((reply) => commentToPost(reply, videoId)));
        }
        pageToken = threads.nextPageToken;
        const oldestThread = threads.items.at(-1)?.snippet.topLevelComment.snippet.publishedAt;
        if (!pageToken || !oldestThread || new Date(oldestThread) <= since) break;
      }
      return comments
        .filter((reply) => reply.publishedAt > since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, limit);
    },
  };
}

function videoToPost(video: Video, channel: Channel | undefined): NormalizedPost {
  const { snippet } = video;
  const handle = channel?.snippet.customUrl?.replace(/^@/, '');
  const statistics = channel?.statistics;
  return {
    platform: 'youtube',
    externalId: video.id,
    url: videoUrl(video.id),
    ...titledText(snippet.title, snippet.description),
    publishedAt: new Date(snippet.publishedAt),
    replyTo: null,
    links: linksInText(snippet.description),
    author: {
      platformId: snippet.channelId,
      name: channel?.snippet.title ?? snippet.channelTitle ?? snippet.channelId,
      handle: handle ?? snippet.channelId,
      url: handle ? `https://www.youtube.com/@${handle}` : `https://www.youtube.com/channel/${snippet.channelId}`,
      avatarUrl: channel?.snippet.thumbnails?.default?.url ?? null,
      followers: statistics && !statistics.hiddenSubscriberCount && statistics.subscriberCount !== undefined ? Number(statistics.subscriberCount) : null,
    },
    language: primaryLanguage(snippet.defaultAudioLanguage ?? snippet.defaultLanguage),
  };
}

function commentToPost(comment: Comment, videoId: string): NormalizedPost {
  const { snippet } = comment;
  const channelId = snippet.authorChannelId?.value ?? snippet.authorDisplayName;
  // The raw text is only guaranteed to the comment's author; the display text (asked as plain text) may still carry entities.
  const text = snippet.textOriginal ?? decodeHtmlEntities(snippet.textDisplay);
  return {
    platform: 'youtube',
    externalId: comment.id,
    url: commentUrl(videoId, comment.id),
    text: text.trim(),
    publishedAt: new Date(snippet.publishedAt),
    replyTo: snippet.parentId ? commentUrl(videoId, snippet.parentId) : videoUrl(videoId),
    links: linksInText(text),
    author: {
      platformId: channelId,
      name: snippet.authorDisplayName,
      handle: snippet.authorDisplayName.replace(/^@/, ''),
      url: snippet.authorChannelUrl ?? `https://www.youtube.com/channel/${channelId}`,
      avatarUrl: snippet.authorProfileImageUrl ?? null,
      followers: null,
    },
  };
}
