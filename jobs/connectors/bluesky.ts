/**
 * Bluesky through an AppView's XRPC API: `app.bsky.feed.searchPosts` for
 * posts, `app.bsky.feed.getPostThread` for comments. The live stream of new
 * posts is bluesky-jetstream.ts.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_BLUESKY`: AppView base, default `https://public.api.bsky.app`.
 * No credential: the public AppView answers without a session.
 */
import { z } from 'zod';
import { blueskyAuthor, blueskyPostRecord, blueskyPostUrl, blueskyProfileBasic, blueskyRecordToPost } from './bluesky-post.ts';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';
import { parseUpstreamShape, upstreamItems } from './upstream-shape.ts';

/** `app.bsky.feed.defs#postView`: the fields Earshot reads (`indexedAt` only dates a post whose own date is garbage). */
const postView = z.object({
  uri: z.string(),
  cid: z.string().optional(),
  author: blueskyProfileBasic,
  record: blueskyPostRecord,
  indexedAt: z.string().optional(),
});

const threadViewType = 'app.bsky.feed.defs#threadViewPost';
/** A thread node; its `replies` are read level by level, and nodes of other types (not found, blocked) are passed over. */
const threadViewPost = z.object({ $type: z.literal(threadViewType), post: postView, replies: z.array(z.unknown()).optional() });
const anyThreadNode = z.object({ $type: z.string() });

const searchPostsOutput = z.object({ cursor: z.string().nullish(), posts: upstreamItems(postView) });
const getPostThreadOutput = z.object({ thread: z.unknown() });

export type BlueskyPostView = z.infer<typeof postView>;
type ThreadViewPost = z.infer<typeof threadViewPost>;

const searchMaximum = 100;

export function createBlueskyConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('bluesky', 'https://public.api.bsky.app', env, '/xrpc');

  const xrpc = async <Schema extends z.ZodType>(method: string, schema: Schema, params: Record<string, string>): Promise<z.infer<Schema>> => {
    const url = new URL(`${base}/xrpc/${method}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return parseUpstreamShape('bluesky', schema, await getUpstreamJson<unknown>({ platform: 'bluesky', url, ...options.retry }), options.logger);
  };

  return {
    platform: 'bluesky',

    async search(query: SearchQuery) {
      const params: Record<string, string> = {
        q: searchText(query),
        sort: 'latest',
        since: query.since.toISOString(),
        limit: String(pageSize(query, searchMaximum)),
      };
      if (query.cursor) params.cursor = query.cursor;
      const result = await xrpc('app.bsky.feed.searchPosts', searchPostsOutput, params);
      return {
        posts: result.posts.map((view) => viewToPost(view)),
        nextCursor: result.posts.length && result.cursor ? result.cursor : null,
      };
    },

    /** Replies at every depth of the post's thread, newest first. */
    async comments(post, since, limit) {
      // Replies at any depth may be the newest, so ask for the deepest tree the AppView serves.
      const { thread: node } = await xrpc('app.bsky.feed.getPostThread', getPostThreadOutput, { uri: post.externalId, depth: '1000', parentHeight: '0' });
      const [thread] = threadViews([node]);
      if (!thread) return [];
      const replies = flattenReplies(thread);
      const urls = new Map([thread.post, ...replies].map((view) => [view.uri, blueskyPostUrl(view.uri, blueskyAuthor(view.author).handle)]));
      return replies
        .map((view) => viewToPost(view, (uri) => urls.get(uri)))
        .filter((reply) => reply.publishedAt > since)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, limit);
    },
  };
}

function threadViews(nodes: unknown[]): ThreadViewPost[] {
  return nodes
    .filter((node) => parseUpstreamShape('bluesky', anyThreadNode, node).$type === threadViewType)
    .map((node) => parseUpstreamShape('bluesky', threadViewPost, node));
}

function flattenReplies(thread: ThreadViewPost): BlueskyPostView[] {
  return threadViews(thread.replies ?? []).flatMap((reply) => [reply.post, ...flattenReplies(reply)]);
}

function viewToPost(view: BlueskyPostView, urlOf?: (atUri: string) => string | undefined): NormalizedPost {
  const indexedAt = new Date(view.indexedAt ?? Number.NaN);
  return blueskyRecordToPost(view.uri, view.record, blueskyAuthor(view.author), { receivedAt: Number.isNaN(indexedAt.getTime()) ? new Date() : indexedAt, urlOf });
}
