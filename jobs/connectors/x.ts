/**
 * X (Twitter) through API v2 recent search, which reaches back seven days.
 * Reposts are left out (`-is:retweet`): they repeat a post already found.
 * X has no comment reading here: replies are posts and are found by search.
 *
 * Environment:
 * - `EARSHOT_X_BEARER_TOKEN`: an app-only bearer token. Required: without
 *   it every search fails with `UpstreamConfigurationError`.
 * - `EARSHOT_UPSTREAM_X`: API base, default `https://api.twitter.com`.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import { primaryLanguage } from './language-tag.ts';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { decodeHtmlEntities, uniqueLinks } from './post-text.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, UpstreamConfigurationError, type UpstreamResponse, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';

const urlEntity = z.object({
  start: z.number(),
  url: z.string(),
  expanded_url: z.string().nullish(),
  unwound_url: z.string().nullish(),
  media_key: z.string().nullish(),
});

const entities = z.object({ urls: z.array(urlEntity).nullish() }).nullish();

/** Ids are strings in API v2; a number (as v1.1 sent) is taken as its decimal text. */
const id = z.union([z.string(), z.number().transform(String)]);

const tweet = z.object({
  id,
  text: z.string(),
  created_at: upstreamTimestamp,
  author_id: id,
  lang: z.string().nullish(),
  entities,
  note_tweet: z.object({ text: z.string(), entities }).nullish(),
  referenced_tweets: z.array(z.object({ type: z.string(), id })).nullish(),
});

const user = z.object({
  id,
  name: z.string(),
  username: z.string(),
  profile_image_url: z.string().nullish(),
  public_metrics: z.object({ followers_count: z.number() }).nullish(),
  // The profile's website (`url`) and the links in its bio, t.co addresses expanded here.
  entities: z.object({ url: entities, description: entities }).nullish(),
});

const searchResponse = z.object({
  data: upstreamItems(tweet).nullish(),
  includes: z.object({ users: upstreamItems(user).nullish() }).nullish(),
  meta: z.object({ next_token: z.string().nullish() }).nullish(),
});

type Tweet = z.infer<typeof tweet>;
type User = z.infer<typeof user>;

const maxResultsRange = { minimum: 10, maximum: 100 };
const recentSearchWindowMs = 7 * 86_400_000;

/** Without `Retry-After`, a 429 names the end of its window in `x-rate-limit-reset` (epoch seconds). */
function xRateLimitWaitMs(response: UpstreamResponse): number | undefined {
  const reset = Number(response.headers.get('x-rate-limit-reset'));
  if (response.status !== 429 || !reset) return undefined;
  return Math.max(0, reset * 1000 - Date.now());
}

export function createXConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('x', 'https://api.twitter.com', env, '/2');
  const token = env.EARSHOT_X_BEARER_TOKEN;
  const unconfigured = token ? undefined : new UpstreamConfigurationError('x', 'EARSHOT_X_BEARER_TOKEN', 'the X API answers no search without a bearer token');

  return {
    platform: 'x',
    unconfigured,

    async search(query: SearchQuery) {
      if (!token) throw unconfigured;
      // Recent search refuses a start_time older than seven days; a minute's margin covers clock skew.
      const earliest = new Date(Date.now() - recentSearchWindowMs + 60_000);
      const startTime = query.since > earliest ? query.since : earliest;
      const url = new URL(`${base}/2/tweets/search/recent`);
      const params: Record<string, string> = {
        query: `${searchText(query)} -is:retweet`,
        max_results: String(Math.max(pageSize(query, maxResultsRange.maximum), maxResultsRange.minimum)),
        start_time: startTime.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        'tweet.fields': 'created_at,author_id,entities,conversation_id,referenced_tweets,lang,note_tweet',
        expansions: 'author_id',
        'user.fields': 'username,name,profile_image_url,public_metrics,entities',
      };
      if (query.cursor) params.next_token = query.cursor;
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      const body = await getUpstreamJson<unknown>({
        platform: 'x',
        url,
        headers: { authorization: `Bearer ${token}` },
        platformWaitMs: xRateLimitWaitMs,
        ...options.retry,
      });
      const result = parseUpstreamShape('x', searchResponse, body, options.logger);
      const users = new Map((result.includes?.users ?? []).map((author) => [author.id, author]));
      const posts = (result.data ?? []).map((item) => tweetToPost(item, users.get(item.author_id)));
      return { posts, nextCursor: result.meta?.next_token ?? null };
    },
  };
}

/**
 * Long posts arrive cut at 280 characters with the whole in `note_tweet`.
 * Links are written as t.co addresses; the text gets the real address back
 * so matching sees the domain a post names. Attached media are not links.
 * A post whose author the answer does not include (the expansion was
 * dropped, the account went private) keeps its author's id alone, and the
 * address X serves for any post by id.
 */
function tweetToPost(item: Tweet, author: User | undefined): NormalizedPost {
  const source = item.note_tweet ?? item;
  const written = [...(source.entities?.urls ?? [])].sort((a, b) => a.start - b.start).filter((entity) => !entity.media_key);
  let text = decodeHtmlEntities(source.text);
  for (const entity of source.entities?.urls ?? []) {
    text = text.replace(entity.url, entity.media_key ? '' : entity.unwound_url ?? entity.expanded_url ?? entity.url);
  }
  const repliedTo = item.referenced_tweets?.find((reference) => reference.type === 'replied_to');
  return {
    platform: 'x',
    externalId: item.id,
    url: author ? `https://x.com/${author.username}/status/${item.id}` : `https://x.com/i/web/status/${item.id}`,
    text: text.trim(),
    publishedAt: new Date(item.created_at),
    replyTo: repliedTo ? `https://x.com/i/web/status/${repliedTo.id}` : null,
    links: uniqueLinks(written.map((entity) => entity.unwound_url ?? entity.expanded_url ?? entity.url)),
    author: author ? userToAuthor(author) : idOnlyAuthor(item.author_id),
    language: primaryLanguage(item.lang ?? undefined),
  };
}

function userToAuthor(author: User): NormalizedAuthor {
  return {
    platformId: author.id,
    name: author.name,
    handle: author.username,
    url: `https://x.com/${author.username}`,
    avatarUrl: author.profile_image_url ?? null,
    followers: author.public_metrics?.followers_count ?? null,
    links: uniqueLinks(
      [...(author.entities?.url?.urls ?? []), ...(author.entities?.description?.urls ?? [])].map((entity) => entity.unwound_url ?? entity.expanded_url ?? entity.url),
    ),
  };
}

function idOnlyAuthor(userId: string): NormalizedAuthor {
  return { platformId: userId, name: userId, handle: userId, url: `https://x.com/i/user/${userId}`, avatarUrl: null, followers: null };
}
