import type { BlueskyPostRecord, BlueskyProfileBasic } from '../../jobs/connectors/bluesky-post.ts';
import type { BlueskyPostView } from '../../jobs/connectors/bluesky.ts';
import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

export interface BlueskyAccountFixture {
  did: string;
  handle: string;
  displayName?: string;
  avatar?: string;
}

export interface BlueskyPostFixture {
  author: BlueskyAccountFixture;
  rkey: string;
  /** Text with links written out in full; each `links` entry is turned into a link facet over its `text`. */
  text: string;
  links?: { text: string; uri: string }[];
  createdAt: Date;
  langs?: string[];
  replyTo?: BlueskyPostView;
  card?: { uri: string; title: string; description: string };
}

const encoder = new TextEncoder();

/** A post record as a client writes it, link facets indexed in UTF-8 bytes. */
export function blueskyRecord(post: Omit<BlueskyPostFixture, 'author' | 'rkey'>): BlueskyPostRecord & Record<string, unknown> {
  const facets = (post.links ?? []).map((link) => {
    const at = post.text.indexOf(link.text);
    if (at < 0) throw new Error(`fixture: "${link.text}" is not in the text`);
    const byteStart = encoder.encode(post.text.slice(0, at)).length;
    return {
      $type: 'app.bsky.richtext.facet',
      index: { byteStart, byteEnd: byteStart + encoder.encode(link.text).length },
      features: [{ $type: 'app.bsky.richtext.facet#link', uri: link.uri }],
    };
  });
  const replyRef = post.replyTo && { uri: post.replyTo.uri, cid: post.replyTo.cid };
  const root = post.replyTo?.record.reply?.root ?? replyRef;
  return {
    $type: 'app.bsky.feed.post',
    createdAt: post.createdAt.toISOString(),
    ...(post.card ? { embed: { $type: 'app.bsky.embed.external', external: post.card } } : {}),
    ...(facets.length ? { facets } : {}),
    langs: post.langs ?? ['en'],
    ...(replyRef ? { reply: { parent: replyRef, root: root! } } : {}),
    text: post.text,
  };
}

/** An AppView `postView` as `searchPosts` and `getPostThread` return it. */
export function blueskyPost(post: BlueskyPostFixture): BlueskyPostView & Record<string, unknown> {
  const author: BlueskyProfileBasic & Record<string, unknown> = {
    did: post.author.did,
    handle: post.author.handle,
    ...(post.author.displayName !== undefined ? { displayName: post.author.displayName } : {}),
    ...(post.author.avatar ? { avatar: post.author.avatar } : {}),
    associated: { chat: { allowIncoming: 'following' } },
    labels: [],
    createdAt: '2023-05-01T12:00:00.000Z',
  };
  return {
    uri: `at://${post.author.did}/app.bsky.feed.post/${post.rkey}`,
    cid: `bafyreic${post.rkey.padEnd(52, 'a')}`,
    author,
    record: blueskyRecord(post),
    ...(post.card ? { embed: { $type: 'app.bsky.embed.external#view', external: post.card } } : {}),
    replyCount: 0,
    repostCount: 0,
    likeCount: 3,
    quoteCount: 0,
    indexedAt: new Date(post.createdAt.getTime() + 400).toISOString(),
    labels: [],
  };
}

interface ThreadView {
  $type: 'app.bsky.feed.defs#threadViewPost';
  post: BlueskyPostView;
  replies: ThreadView[];
}

const invalid = (message: string) => ({ status: 400, body: { error: 'InvalidRequest', message } });

/** An AppView's `searchPosts` (offset cursors, as the real one uses) and `getPostThread` over `posts`. */
export function startFakeBluesky(fixtures: { posts: BlueskyPostView[] }, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  const threadOf = (view: BlueskyPostView): ThreadView => ({
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: view,
    replies: fixtures.posts.filter((candidate) => candidate.record.reply?.parent.uri === view.uri).map(threadOf),
  });
  return startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    const { query } = request;
    if (request.path === '/xrpc/app.bsky.feed.searchPosts') {
      const q = query.get('q');
      const limit = Number(query.get('limit') ?? 25);
      if (!q) return invalid('Error: Params must have the property "q"');
      if (!(limit >= 1 && limit <= 100)) return invalid('Error: limit must be <= 100');
      if (query.get('sort') && !['top', 'latest'].includes(query.get('sort')!)) return invalid('Error: sort must be one of "top" or "latest"');
      const since = query.get('since');
      const found = fixtures.posts
        .filter((view) => !since || view.record.createdAt >= new Date(since).toISOString())
        .filter((view) => matchesSearch(view.record.text, q))
        .sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt));
      const offset = Number(query.get('cursor') ?? 0);
      const posts = found.slice(offset, offset + limit);
      return { body: { ...(offset + limit < found.length ? { cursor: String(offset + limit) } : {}), hitsTotal: found.length, posts } };
    }
    if (request.path === '/xrpc/app.bsky.feed.getPostThread') {
      const root = fixtures.posts.find((view) => view.uri === query.get('uri'));
      if (!root) return { status: 400, body: { error: 'NotFound', message: `Post not found: ${query.get('uri')}` } };
      return { body: { thread: threadOf(root) } };
    }
    return null;
  }, options);
}
