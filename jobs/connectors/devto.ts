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
import { htmlToText, joinTitleAndBody, linksInHtml } from './post-text.ts';
import { mayMentionTerm, pageSize } from './search-query.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape } from './upstream-shape.ts';

const userShape = z.object({
  name: z.string(),
  username: z.string(),
  user_id: z.number(),
  profile_image: z.string(),
  // What the profile links to; people are merged across platforms on these.
  website_url: z.string().nullish(),
  github_username: z.string().nullish(),
  twitter_username: z.string().nullish(),
});

/** An article of a list: no body. */
const articleSummaryShape = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  published_at: z.iso.datetime({ offset: true }),
  tag_list: z.array(z.string()),
});

/** One article: its body, and (unlike the list) `tag_list` as a string, which is not read. */
const articleShape = z.object({
  id: z.number(),
  title: z.string(),
  url: z.string(),
  published_at: z.iso.datetime({ offset: true }),
  body_html: z.string(),
  user: userShape,
});

/** A comment and its replies; a deleted comment keeps its place without a user. */
const commentShape = z.object({
  id_code: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  body_html: z.string(),
  user: userShape.optional(),
  children: z.array(z.unknown()),
});

export type ForemUser = z.infer<typeof userShape>;
export type ForemComment = z.infer<typeof commentShape>;

const latestPageMaximum = 1000;

export function createDevToConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('devto', 'https://dev.to', env);

  const get = async <Schema extends z.ZodType>(path: string, schema: Schema, params: Record<string, string> = {}): Promise<z.infer<Schema>> => {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const body = await getUpstreamJson<unknown>({ platform: 'devto', url, headers: { accept: 'application/vnd.forem.api-v1+json' }, ...options.retry });
    return parseUpstreamShape('devto', schema, body);
  };

  return {
    platform: 'devto',

    async search(query: SearchQuery) {
      const page = query.cursor ? Number(query.cursor) : 1;
      const perPage = pageSize(query, latestPageMaximum);
      const articles = await get('/api/articles/latest', z.array(articleSummaryShape), { per_page: String(perPage), page: String(page) });
      const recent = articles.filter((article) => new Date(article.published_at) >= query.since);
      const candidates = recent.filter((article) => mayMentionTerm([article.title, article.description, ...article.tag_list].join(' '), query));
      const full = await Promise.all(candidates.map((article) => get(`/api/articles/${article.id}`, articleShape)));
      const more = articles.length === perPage && recent.length === articles.length;
      return { posts: full.map(articleToPost), nextCursor: more ? String(page + 1) : null };
    },

    /** The article's comment threads flattened, newest first. */
    async comments(post, since, limit) {
      const threads = await get('/api/comments', z.array(commentShape), { a_id: post.externalId });
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
    const replies = parseUpstreamShape('devto', z.array(commentShape), comment.children);
    if (!comment.user) return flattenComments(replies, parentUrl);
    const withUser = { ...comment, user: comment.user };
    return [commentToPost(withUser, parentUrl), ...flattenComments(replies, commentUrl(withUser))];
  });
}

function author(user: ForemUser): NormalizedAuthor {
  return {
    platformId: String(user.user_id),
    name: user.name,
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

function articleToPost(article: z.infer<typeof articleShape>): NormalizedPost {
  return {
    platform: 'devto',
    externalId: String(article.id),
    url: article.url,
    text: joinTitleAndBody(article.title, htmlToText(article.body_html)),
    publishedAt: new Date(article.published_at),
    replyTo: null,
    links: linksInHtml(article.body_html),
    author: author(article.user),
  };
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
