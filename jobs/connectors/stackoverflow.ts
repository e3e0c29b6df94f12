/**
 * Stack Overflow through the Stack Exchange API 2.3: questions from
 * `search/advanced`, and as comments a question's answers plus the comments
 * on the question and its answers.
 *
 * Environment:
 * - `EARSHOT_STACKEXCHANGE_KEY`: an app key from stackapps.com. Optional:
 *   without it the daily quota is 300 requests per IP instead of 10,000.
 * - `EARSHOT_UPSTREAM_STACKOVERFLOW`: API base, default `https://api.stackexchange.com`.
 *
 * The API asks callers to pause a method for `backoff` seconds when a
 * response carries it; the connector remembers that per method and waits it
 * out before the next call (or fails with `retryAfterSeconds` when it is
 * longer than the retry policy's `maxRetryAfterMs`). The same holds for a
 * spent daily quota, which returns at midnight UTC.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { decodeHtmlEntities, htmlToText, titledText, linksInHtml } from './post-text.ts';
import { pageSize, searchText, unixSeconds } from './search-query.ts';
import { getUpstreamJson, UpstreamError, type UpstreamResponse, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';

/** `shallow_user`: `user_id` and `link` are missing for deleted accounts. */
const ownerShape = z.object({
  user_id: z.number().optional(),
  display_name: z.string(),
  profile_image: z.string().optional(),
  link: z.string().optional(),
});

/**
 * `body` comes only with the `withbody` filter asked for; an answer made
 * with the default filter (or a proxy's recording of one) still maps, to
 * its title alone. The same goes for `link`, derived from the id.
 */
const questionShape = z.object({
  question_id: z.number(),
  link: z.string().optional(),
  title: z.string(),
  body: z.string().optional(),
  creation_date: z.number(),
  owner: ownerShape,
});

const answerShape = z.object({
  answer_id: z.number(),
  question_id: z.number(),
  body: z.string().optional(),
  creation_date: z.number(),
  owner: ownerShape,
});

const commentShape = z.object({
  comment_id: z.number(),
  post_id: z.number(),
  body: z.string().optional(),
  creation_date: z.number(),
  owner: ownerShape,
});

/** The common wrapper of every response; a filter can leave out all but `items`. */
const wrapperShape = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: upstreamItems(item),
    has_more: z.boolean().optional(),
    quota_max: z.number().optional(),
    quota_remaining: z.number().optional(),
    backoff: z.number().optional(),
  });

export type StackExchangeOwner = z.infer<typeof ownerShape>;
export type StackExchangeQuestion = z.infer<typeof questionShape>;
export type StackExchangeAnswer = z.infer<typeof answerShape>;
export type StackExchangeComment = z.infer<typeof commentShape>;

const site = 'https://stackoverflow.com';
const pageSizeMaximum = 100;

/**
 * A spent quota or a request flood comes back as HTTP 400 with `error_id`
 * 502 (`throttle_violation`) and the wait in its message.
 */
function stackExchangeThrottleWaitMs(response: UpstreamResponse): number | undefined {
  if (response.status !== 400) return undefined;
  try {
    const error = JSON.parse(response.text) as { error_id?: number; error_message?: string };
    if (error.error_id !== 502) return undefined;
    const seconds = Number(error.error_message?.match(/available in (\d+) seconds?/)?.[1] ?? 60);
    return seconds * 1000;
  } catch {
    return undefined;
  }
}

const nextUtcMidnight = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
};

export function createStackOverflowConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('stackoverflow', 'https://api.stackexchange.com', env, '/2.3');
  const key = env.EARSHOT_STACKEXCHANGE_KEY;
  const maxWaitMs = options.retry?.maxRetryAfterMs ?? 30_000;
  /** Per method (path with `{ids}`), the instant before which the API asked not to be called. */
  const pausedUntil = new Map<string, number>();
  let quotaSpentUntil = 0;

  async function call<Item extends z.ZodType>(method: string, path: string, item: Item, params: Record<string, string>) {
    const waitMs = Math.max(pausedUntil.get(method) ?? 0, quotaSpentUntil) - Date.now();
    if (waitMs > maxWaitMs) {
      throw new UpstreamError('stackoverflow', `asked to pause ${method} for ${Math.ceil(waitMs / 1000)} s`, undefined, Math.ceil(waitMs / 1000));
    }
    if (waitMs > 0) await sleep(waitMs);
    const url = new URL(`${base}/2.3${path}`);
    for (const [name, value] of Object.entries({ ...params, site: 'stackoverflow', filter: 'withbody', ...(key ? { key } : {}) })) url.searchParams.set(name, value);
    const body = await getUpstreamJson<unknown>({ platform: 'stackoverflow', url, platformWaitMs: stackExchangeThrottleWaitMs, ...options.retry });
    const result = parseUpstreamShape('stackoverflow', wrapperShape(item), body, options.logger);
    if (result.backoff) pausedUntil.set(method, Date.now() + result.backoff * 1000);
    if (result.quota_remaining === 0) quotaSpentUntil = nextUtcMidnight();
    return result;
  }

  return {
    platform: 'stackoverflow',

    async search(query: SearchQuery) {
      const page = query.cursor ? Number(query.cursor) : 1;
      const result = await call('search/advanced', '/search/advanced', questionShape, {
        q: searchText(query),
        sort: 'creation',
        order: 'desc',
        fromdate: String(unixSeconds(query.since)),
        pagesize: String(pageSize(query, pageSizeMaximum)),
        page: String(page),
      });
      return { posts: result.items.map(questionToPost), nextCursor: result.has_more ? String(page + 1) : null };
    },

    /**
     * New answers, and new comments on the question or on any of its answers
     * (an old answer can draw a new comment), newest first.
     */
    async comments(post, since, limit) {
      const questionId = post.externalId;
      const answers = await call('questions/{ids}/answers', `/questions/${questionId}/answers`, answerShape, {
        sort: 'creation',
        order: 'desc',
        pagesize: String(pageSizeMaximum),
      });
      const postIds = [questionId, ...answers.items.map((answer) => answer.answer_id)].slice(0, pageSizeMaximum);
      const comments = await call('posts/{ids}/comments', `/posts/${postIds.join(';')}/comments`, commentShape, {
        sort: 'creation',
        order: 'desc',
        fromdate: String(unixSeconds(since)),
        pagesize: String(pageSizeMaximum),
      });
      const urlOfPost = (postId: number) => (String(postId) === questionId ? post.url : answerUrl(postId));
      return [
        ...answers.items.map((answer) => answerToPost(answer, post.url)),
        ...comments.items.map((comment) => commentToPost(comment, post.url, urlOfPost(comment.post_id))),
      ]
        .filter((reply) => reply.publishedAt > since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, limit);
    },
  };
}

const answerUrl = (answerId: number) => `${site}/a/${answerId}`;

/** Display names come HTML-escaped, like every text field of the API. */
function author(owner: StackExchangeOwner): NormalizedAuthor {
  const name = decodeHtmlEntities(owner.display_name);
  return {
    platformId: owner.user_id === undefined ? name : String(owner.user_id),
    name,
    handle: name,
    url: owner.link ?? (owner.user_id === undefined ? '' : `${site}/users/${owner.user_id}`),
    avatarUrl: owner.profile_image ?? null,
    followers: null,
  };
}

function questionToPost(question: StackExchangeQuestion): NormalizedPost {
  return {
    platform: 'stackoverflow',
    externalId: String(question.question_id),
    url: question.link ?? `${site}/q/${question.question_id}`,
    ...titledText(decodeHtmlEntities(question.title), htmlToText(question.body ?? '')),
    publishedAt: new Date(question.creation_date * 1000),
    replyTo: null,
    links: linksInHtml(question.body ?? '', site),
    author: author(question.owner),
  };
}

function answerToPost(answer: StackExchangeAnswer, questionUrl: string): NormalizedPost {
  return {
    platform: 'stackoverflow',
    externalId: String(answer.answer_id),
    url: answerUrl(answer.answer_id),
    text: htmlToText(answer.body ?? ''),
    publishedAt: new Date(answer.creation_date * 1000),
    replyTo: questionUrl,
    links: linksInHtml(answer.body ?? '', site),
    author: author(answer.owner),
  };
}

/** Comment ids are their own sequence, apart from question and answer ids, hence the prefix. */
function commentToPost(comment: StackExchangeComment, questionUrl: string, parentUrl: string): NormalizedPost {
  return {
    platform: 'stackoverflow',
    externalId: `comment:${comment.comment_id}`,
    url: `${questionUrl}#comment${comment.comment_id}_${comment.post_id}`,
    text: htmlToText(comment.body ?? ''),
    publishedAt: new Date(comment.creation_date * 1000),
    replyTo: parentUrl,
    links: linksInHtml(comment.body ?? '', site),
    author: author(comment.owner),
  };
}
