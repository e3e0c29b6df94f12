/**
 * DEV (dev.to) through the Forem API v1.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_DEVTO`: API base, default `https://dev.to`.
 * No credential: published articles and comments are public.
 *
 * Finding articles: the public API has no full-text search. `?tag=` only
 * finds articles whose author picked the term as one of four tags, which
 * misses nearly every brand mention. So the connector reads the complete
 * feed of new articles (`/api/articles/latest`, newest first) and keeps
 * those whose title, description (the body's opening unless the author set
 * one) or tags may mention the term; only those are fetched whole for their
 * body. A page can therefore hold no posts while `nextCursor` still points
 * further back; the page size is the number of articles scanned.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { htmlToText, titledText, linksInHtml, linksInText } from './post-text.ts';
import { mayMentionTerm, pageSize } from './search-query.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';
import { pathWithFallback, whenUpstreamFails } from './optional-call.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';

const userShape = z.object({
  name: z.string().nullish(),
  username: z.string(),
  user_id: z.union([z.number(), z.string()]).nullish(),
  profile_image: z.string().nullish(),
  // What the profile links to; people are merged across platforms on these.
  website_url: z.string().nullish(),
  github_username: z.string().nullish(),
  twitter_username: z.string().nullish(),
});

/** `tag_list` is an array in lists and a comma-separated string on one article (`tags` the other way round). */
const tagList = z.union([z.array(z.string()), z.string().transform((tags) => tags.split(',').map((tag) => tag.trim()).filter(Boolean))]);

/** An article of a list: no body. `url` and `user` are read when the article itself cannot be. */
const articleSummaryShape = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullish(),
  url: z.string().optional(),
  published_at: upstreamTimestamp,
  tag_list: tagList.nullish(),
  user: userShape.optional(),
});

/** One article: its body. */
const articleShape = z.object({
  id: z.number(),
  title: z.string(),
  url: z.string(),
  published_at: upstreamTimestamp,
  body_html: z.string(),
  user: userShape,
});

/** A comment and its replies; a deleted comment keeps its place without a user. */
const commentShape = z.object({
  id_code: z.string(),
  created_at: upstreamTimestamp,
  body_html: z.string(),
  user: userShape.optional(),
  children: z.array(z.unknown()),
});

export type ForemUser = z.infer<typeof userShape>;
export type ForemComment = z.infer<typeof commentShape>;

const latestPageMaximum = 1000;

export function createDevToConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('devto', 'https://dev.to', env, '/api');

  const get = async <Schema extends z.ZodType>(path: string, schema: Schema, params: Record<string, string> = {}): Promise<z.infer<Schema>> => {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const body = await getUpstreamJson<unknown>({ platform: 'devto', url, headers: { accept: 'application/vnd.forem.api-v1+json' }, ...options.retry });
    return parseUpstreamShape('devto', schema, body, options.logger);
  };

  /** `/api/articles/latest` lists by publication, newest first; a server without it is read at `/api/articles`, the list every Forem serves. */
  const articleList = pathWithFallback('/api/articles/latest', '/api/articles');
  const latestArticles = (params: Record<string, string>) => articleList((path) => get(path, upstreamItems(articleSummaryShape), params));

  return {
    platform: 'devto',

    async search(query: SearchQuery) {
      const page = query.cursor ? Number(query.cursor) : 1;
      const perPage = pageSize(query, latestPageMaximum);
      const articles = await latestArticles({ per_page: String(perPage), page: String(page) });
      const recent = articles.filter((article) => new Date(article.published_at) >= query.since);
      const candidates = recent.filter((article) => mayMentionTerm([article.title, article.description ?? '', ...(article.tag_list ?? [])].join(' '), query));
      // The whole article only adds its body: without it (the read failed) the list's title and description stand in.
      const posts = await Promise.all(candidates.map((summary) => get(`/api/articles/${summary.id}`, articleShape)
        .then((article) => articleToPost(article, htmlToText(article.body_html), linksInHtml(article.body_html)))
        .catch(whenUpstreamFails(() => summaryToPost(summary)))));
      const more = articles.length === perPage && recent.length === articles.length;
      return { posts: posts.filter((post) => post !== null), nextCursor: more ? String(page + 1) : null };
    },

    /** The article's comment threads flattened, newest first. */
    async comments(post, since, limit) {
      const threads = await get('/api/comments', upstreamItems(commentShape), { a_id: post.externalId });
      const flattened = flattenComments(threads, post.url);
      return flattened
        .filter((comment) => comment.publishedAt > since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, limit);
    },
  };
}

const commentUrl = (comment: ForemComment & { user: ForemUser }) => `https://dev.to/${comment.user.username}/comment/${comment.id_code}`;

/** A deleted comment is left out but its replies still count. Replies are checked level by level. */
function flattenComments(comments: ForemComment[], parentUrl: string): NormalizedPost[] {
  return comments.flatMap((comment) => {
    const replies = parseUpstreamShape('devto', upstreamItems(commentShape), comment.children);
    if (!comment.user) return flattenComments(replies, parentUrl);
    const withUser = { ...comment, user: comment.user };
    return [commentToPost(withUser, parentUrl), ...flattenComments(replies, commentUrl(withUser))];
  });
}

function author(user: ForemUser): NormalizedAuthor {
  return {
    platformId: String(user.user_id ?? user.username),
    name: user.name || user.username,
    handle: user.username,
    url: `https://dev.to/${user.username}`,
    avatarUrl: user.profile_image || null,
    followers: null,
    links: [
      ...(user.website_url ? [user.website_url] : []),
      ...(user.github_username ? [`https://github.com/${user.github_username}`] : []),
      ...(user.twitter_username ? [`https://x.com/${user.twitter_username}`] : []),
    ],
  };
}

/** An article with its body as text and links; the list's description stands in for a body that could not be read. */
function articleToPost(article: Pick<z.infer<typeof articleShape>, 'id' | 'title' | 'url' | 'published_at' | 'user'>, body: string, links: string[]): NormalizedPost {
  return {
    platform: 'devto',
    externalId: String(article.id),
    url: article.url,
    ...titledText(article.title, body),
    publishedAt: new Date(article.published_at),
    replyTo: null,
    links,
    author: author(article.user),
  };
}

/** A listed article without its body; null when the list left out its address or author. */
function summaryToPost(summary: z.infer<typeof articleSummaryShape>): NormalizedPost | null {
  const { url, user, description } = summary;
  return url && user ? articleToPost({ ...summary, url, user }, description ?? '', linksInText(description ?? '')) : null;
}

/** Comment codes are their own sequence, apart from article ids, hence the prefix. */
function commentToPost(comment: ForemComment & { user: ForemUser }, parentUrl: string): NormalizedPost {
  return {
    platform: 'devto',
    externalId: `comment:${comment.id_code}`,
    url: commentUrl(comment),
    text: htmlToText(comment.body_html),
    publishedAt: new Date(comment.created_at),
    replyTo: parentUrl,
    links: linksInHtml(comment.body_html),
    author: author(comment.user),
  };
}
