/**
 * Reddit through its JSON API: site search for posts, a post's comment tree
 * for comments.
 *
 * Environment:
 * - `EARSHOT_REDDIT_CLIENT_ID`, `EARSHOT_REDDIT_CLIENT_SECRET`: an app's
 *   credentials for application-only OAuth (client credentials). Optional:
 *   without them the public JSON of www.reddit.com is read, at a far lower
 *   rate limit.
 * - `EARSHOT_REDDIT_USER_AGENT`: Reddit refuses generic user agents and asks
 *   for `<platform>:<app id>:<version> (by /u/<name>)`; default
 *   `web:earshot:0.0.1 (mention tracking)`.
 * - `EARSHOT_UPSTREAM_REDDIT`: API base, default `https://oauth.reddit.com`
 *   with credentials, `https://www.reddit.com` without.
 * - `EARSHOT_UPSTREAM_REDDIT_AUTH`: token host, default `https://www.reddit.com`.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { decodeHtmlEntities, titledText, linksInText, uniqueLinks } from './post-text.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, UpstreamError, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';

/** A `Listing`; the kind is checked where sent (a trimmed recording may drop it). */
const listingOf = <Child extends z.ZodType>(child: Child) =>
  z.object({ kind: z.literal('Listing').optional(), data: z.object({ after: z.string().nullish(), children: upstreamItems(child) }) });

/**
 * A link (`t3`) thing's data: the fields Earshot reads. Reddit always sends
 * all of them; fields a trimmed recording drops are derived from the others
 * (fullname from the id, permalink from subreddit and id, a self post when
 * there is no target URL).
 */
const linkData = z.preprocess(
  (data) => {
    if (!data || typeof data !== 'object') return data;
    const raw = data as Record<string, unknown>;
    const permalink = raw.permalink ?? `/r/${String(raw.subreddit)}/comments/${String(raw.id)}/`;
    return {
      ...raw,
      name: raw.name ?? `t3_${String(raw.id)}`,
      selftext: raw.selftext ?? '',
      permalink,
      is_self: raw.is_self ?? raw.url == null,
      url: raw.url ?? `https://www.reddit.com${String(permalink)}`,
    };
  },
  z.object({
    id: z.string(),
    name: z.string(),
    title: z.string(),
    selftext: z.string(),
    is_self: z.boolean(),
    url: z.string(),
    url_overridden_by_dest: z.string().nullish(),
    permalink: z.string(),
    subreddit: z.string(),
    author: z.string(),
    author_fullname: z.string().nullish(),
    created_utc: z.number(),
  }),
);

/** A comment (`t1`) thing's data; `replies` is "" or a listing of more comments, read level by level. */
const commentData = z.object({
  id: z.string(),
  name: z.string(),
  body: z.string(),
  permalink: z.string(),
  parent_id: z.string(),
  subreddit: z.string(),
  author: z.string(),
  author_fullname: z.string().nullish(),
  created_utc: z.number(),
  replies: z.union([z.literal(''), listingOf(z.unknown())]).nullish(),
});

const linkThing = z.object({ kind: z.literal('t3').optional(), data: linkData });
/** `more` stands for comments the tree left out; sorted by new, the tree already holds the newest, so they are not fetched. */
const commentOrMore = z.discriminatedUnion('kind', [z.object({ kind: z.literal('t1'), data: commentData }), z.object({ kind: z.literal('more') })]);

const searchListing = listingOf(linkThing);
const commentsResponse = z.tuple([listingOf(linkThing), listingOf(commentOrMore)]);
const accessToken = z.object({ access_token: z.string(), expires_in: z.number() });

export type RedditLinkData = z.infer<typeof linkData>;
export type RedditCommentData = z.infer<typeof commentData>;

const site = 'https://www.reddit.com';
const listingMaximum = 100;

/** Reddit search's `t` window: the narrowest that still reaches back to `since`. */
function timeWindow(since: Date): string {
  const hours = (Date.now() - since.getTime()) / 3_600_000;
  if (hours <= 1) return 'hour';
  if (hours <= 24) return 'day';
  if (hours <= 24 * 7) return 'week';
  if (hours <= 24 * 31) return 'month';
  if (hours <= 24 * 365) return 'year';
  return 'all';
}

export function createRedditConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const clientId = env.EARSHOT_REDDIT_CLIENT_ID;
  const clientSecret = env.EARSHOT_REDDIT_CLIENT_SECRET;
  const useOAuth = !!(clientId && clientSecret);
  const base = upstreamBase('reddit', useOAuth ? 'https://oauth.reddit.com' : site, env);
  const authBase = upstreamBase('reddit_auth', site, env);
  const userAgent = env.EARSHOT_REDDIT_USER_AGENT || 'web:earshot:0.0.1 (mention tracking)';
  let token: { value: string; expiresAt: number } | null = null;

  async function currentToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const body = await getUpstreamJson<unknown>({
      platform: 'reddit',
      url: `${authBase}/api/v1/access_token`,
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': userAgent,
      },
      body: 'grant_type=client_credentials',
      ...options.retry,
    });
    const granted = parseUpstreamShape('reddit', accessToken, body);
    // Renew a minute early so a token never expires between check and use.
    token = { value: granted.access_token, expiresAt: Date.now() + (granted.expires_in - 60) * 1000 };
    return token.value;
  }

  async function get<Schema extends z.ZodType>(path: string, schema: Schema, params: Record<string, string>): Promise<z.infer<Schema>> {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    // raw_json=1: titles and bodies as written, not with &, < and > escaped.
    url.searchParams.set('raw_json', '1');
    const call = async () => parseUpstreamShape('reddit', schema, await getUpstreamJson<unknown>({
      platform: 'reddit',
      url,
      headers: { 'user-agent': userAgent, ...(useOAuth ? { authorization: `bearer ${await currentToken()}` } : {}) },
      ...options.retry,
    }));
    try {
      return await call();
    } catch (error) {
      // A token revoked or expired early: fetch a new one once.
      if (!(useOAuth && error instanceof UpstreamError && error.status === 401)) throw error;
      token = null;
      return call();
    }
  }

  return {
    platform: 'reddit',

    async search(query: SearchQuery) {
      const params: Record<string, string> = {
        q: searchText(query),
        sort: 'new',
        t: timeWindow(query.since),
        limit: String(pageSize(query, listingMaximum)),
      };
      if (query.cursor) params.after = query.cursor;
      const listing = await get('/search.json', searchListing, params);
      const links = listing.data.children.map((thing) => thing.data);
      const posts = links.filter((link) => link.created_utc * 1000 >= query.since.getTime()).map(linkToPost);
      const reachedSince = posts.length < links.length;
      return { posts, nextCursor: reachedSince ? null : listing.data.after ?? null };
    },

    /** Every comment of the post's tree, nested replies flattened, newest first. */
    async comments(post, since, limit) {
      const id = post.externalId.replace(/^t3_/, '');
      const [postListing, commentListing] = await get(`/comments/${encodeURIComponent(id)}.json`, commentsResponse, {
        sort: 'new',
        limit: String(Math.min(Math.max(limit, 1), 500)),
      });
      const link = postListing.data.children[0]?.data;
      const postUrl = link ? site + link.permalink : post.url;
      const comments = flattenComments(commentListing.data.children);
      const urlOf = new Map(comments.map((comment) => [comment.name, site + comment.permalink]));
      const parentUrl = (parentId: string) =>
        parentId.startsWith('t3_') ? postUrl : urlOf.get(parentId) ?? `${postUrl.replace(/\/?$/, '/')}${parentId.replace(/^t1_/, '')}/`;
      return comments
        .filter((comment) => comment.created_utc * 1000 > since.getTime())
        .sort((a, b) => b.created_utc - a.created_utc)
        .slice(0, limit)
        .map((comment) => commentToPost(comment, parentUrl(comment.parent_id)));
    },
  };
}

function flattenComments(things: z.infer<typeof commentOrMore>[]): RedditCommentData[] {
  return things.flatMap((thing) => {
    if (thing.kind !== 't1') return [];
    const replies = thing.data.replies ? parseUpstreamShape('reddit', upstreamItems(commentOrMore), thing.data.replies.data.children) : [];
    return [thing.data, ...flattenComments(replies)];
  });
}

function author(data: { author: string; author_fullname?: string | null }): NormalizedPost['author'] {
  return {
    platformId: data.author_fullname ?? data.author,
    name: data.author,
    handle: data.author,
    url: `${site}/user/${encodeURIComponent(data.author)}`,
    avatarUrl: null,
    followers: null,
  };
}

/**
 * Text is decoded although `raw_json=1` asks for it as written: a server
 * that ignores the parameter (an older API, a proxy) sends the legacy form
 * with `&`, `<` and `>` escaped. Decoding costs only an entity a user typed
 * literally.
 */
function linkToPost(link: RedditLinkData): NormalizedPost {
  return {
    platform: 'reddit',
    externalId: link.name,
    url: site + link.permalink,
    ...titledText(decodeHtmlEntities(link.title), decodeHtmlEntities(link.selftext)),
    publishedAt: new Date(link.created_utc * 1000),
    replyTo: null,
    links: uniqueLinks(link.is_self ? [] : [link.url_overridden_by_dest ?? link.url], linksInText(link.selftext)),
    author: author(link),
    subreddit: link.subreddit.toLowerCase(),
  };
}

function commentToPost(comment: RedditCommentData, replyTo: string): NormalizedPost {
  return {
    platform: 'reddit',
    externalId: comment.name,
    url: site + comment.permalink,
    text: decodeHtmlEntities(comment.body).trim(),
    publishedAt: new Date(comment.created_utc * 1000),
    replyTo,
    links: linksInText(comment.body),
    author: author(comment),
    subreddit: comment.subreddit.toLowerCase(),
  };
}
