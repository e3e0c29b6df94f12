import type { RedditCommentData, RedditLinkData } from '../../jobs/connectors/reddit.ts';
import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

export type RedditLink = RedditLinkData & Record<string, unknown>;
export type RedditComment = RedditCommentData & Record<string, unknown>;
type RedditThing = { kind: 't3'; data: RedditLink } | { kind: 't1'; data: RedditComment } | { kind: 'more'; data: { count: number; name: string; id: string; parent_id: string; depth: number; children: string[] } };

interface RedditListing {
  kind: 'Listing';
  data: { after: string | null; dist: number; modhash: string; geo_filter: string; children: RedditThing[]; before: null };
}

export interface RedditPostFixture {
  id: string;
  subreddit: string;
  title: string;
  /** Markdown of a self post; absent for a link post. */
  selftext?: string;
  /** Target of a link post. */
  url?: string;
  author?: string;
  authorId?: string;
  createdAt: Date;
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 50);

/** A `t3` thing's data with the field set Reddit sends. */
export function redditPost(post: RedditPostFixture): RedditLink {
  const author = post.author ?? 'spez';
  const permalink = `/r/${post.subreddit}/comments/${post.id}/${slug(post.title)}/`;
  const isSelf = post.url === undefined;
  const created = post.createdAt.getTime() / 1000;
  return {
    approved_at_utc: null,
    subreddit: post.subreddit,
    selftext: post.selftext ?? '',
    author_fullname: post.authorId ?? `t2_${author.toLowerCase()}`,
    saved: false,
    gilded: 0,
    clicked: false,
    title: post.title,
    link_flair_richtext: [],
    subreddit_name_prefixed: `r/${post.subreddit}`,
    hidden: false,
    pwls: 6,
    link_flair_css_class: null,
    downs: 0,
    thumbnail: isSelf ? 'self' : 'default',
    edited: false,
    selftext_html: post.selftext ? `&lt;!-- SC_OFF --&gt;&lt;div class="md"&gt;&lt;p&gt;${post.selftext}&lt;/p&gt;&lt;/div&gt;&lt;!-- SC_ON --&gt;` : null,
    ups: 12,
    upvote_ratio: 0.93,
    score: 12,
    domain: isSelf ? `self.${post.subreddit}` : new URL(post.url!).hostname,
    is_self: isSelf,
    created: created,
    created_utc: created,
    over_18: false,
    spoiler: false,
    locked: false,
    subreddit_id: `t5_${post.subreddit.toLowerCase()}`,
    id: post.id,
    name: `t3_${post.id}`,
    author,
    num_comments: 0,
    permalink,
    url: isSelf ? `https://www.reddit.com${permalink}` : post.url!,
    ...(isSelf ? {} : { url_overridden_by_dest: post.url }),
    subreddit_subscribers: 120_000,
    stickied: false,
    is_video: false,
  };
}

export interface RedditCommentFixture {
  id: string;
  post: RedditLink;
  /** `t1_<id>` of the comment answered, or absent for a top-level comment. */
  parentId?: string;
  body: string;
  author?: string;
  createdAt: Date;
  replies?: RedditComment[];
}

/** A `t1` thing's data with the field set Reddit sends, replies nested as Reddit nests them. */
export function redditComment(comment: RedditCommentFixture): RedditComment {
  const author = comment.author ?? 'automoderator';
  const created = comment.createdAt.getTime() / 1000;
  return {
    subreddit_id: comment.post.subreddit_id,
    approved_at_utc: null,
    author_is_blocked: false,
    edited: false,
    author_fullname: `t2_${author.toLowerCase()}`,
    gilded: 0,
    author,
    replies: comment.replies?.length ? listing(comment.replies.map((data) => ({ kind: 't1', data }))) : '',
    saved: false,
    id: comment.id,
    score: 3,
    body: comment.body,
    body_html: `&lt;div class="md"&gt;&lt;p&gt;${comment.body}&lt;/p&gt;&lt;/div&gt;`,
    name: `t1_${comment.id}`,
    parent_id: comment.parentId ?? comment.post.name,
    link_id: comment.post.name,
    subreddit: comment.post.subreddit,
    permalink: `${comment.post.permalink}${comment.id}/`,
    created: created,
    created_utc: created,
    depth: 0,
    controversiality: 0,
    ups: 3,
    downs: 0,
  };
}

function listing(children: RedditThing[], after: string | null = null): RedditListing {
  return { kind: 'Listing', data: { after, dist: children.length, modhash: '', geo_filter: '', children, before: null } };
}

export interface FakeRedditFixtures {
  posts: RedditLink[];
  /** Top-level comments (replies nested inside) by post id. */
  comments?: Record<string, RedditComment[]>;
  /** With client credentials set, the token endpoint works and API calls need its bearer token. */
  client?: { id: string; secret: string };
}

export interface FakeReddit extends FakeUpstream {
  /** Invalidate every token issued so far, as Reddit does when one expires early. */
  revokeTokens(): void;
}

const windows: Record<string, number> = { hour: 1, day: 24, week: 24 * 7, month: 24 * 31, year: 24 * 365, all: Infinity };

/** reddit.com's JSON API (search, a post's comments) and its OAuth token endpoint. */
export async function startFakeReddit(fixtures: FakeRedditFixtures, options: FakeServerOptions = {}): Promise<FakeReddit> {
  const validTokens = new Set<string>();
  let issued = 0;
  const fake = await startFakeServer((request) => {
    if (request.method === 'POST' && request.path === '/api/v1/access_token') {
      const expected = fixtures.client && `Basic ${Buffer.from(`${fixtures.client.id}:${fixtures.client.secret}`).toString('base64')}`;
      if (!expected || request.headers.authorization !== expected) return { status: 401, body: { message: 'Unauthorized', error: 401 } };
      if (new URLSearchParams(request.body).get('grant_type') !== 'client_credentials') return { status: 200, body: { error: 'unsupported_grant_type' } };
      const token = `fake-token-${++issued}`;
      validTokens.add(token);
      return { body: { access_token: token, token_type: 'bearer', expires_in: 86400, scope: '*' } };
    }
    if (request.method !== 'GET') return null;
    if (fixtures.client) {
      const token = request.headers.authorization?.replace(/^bearer /i, '');
      if (!token || !validTokens.has(token)) return { status: 401, body: { message: 'Unauthorized', error: 401 } };
    }
    if (request.query.get('raw_json') !== '1') return { status: 400, body: { message: 'fake: raw_json=1 expected', error: 400 } };
    if (request.path === '/search.json') {
      const { query } = request;
      const hours = windows[query.get('t') ?? 'all'];
      const limit = Number(query.get('limit') ?? 25);
      if (hours === undefined || query.get('sort') !== 'new' || !(limit >= 1 && limit <= 100)) return { status: 400, body: { message: 'Bad Request', error: 400 } };
      const found = fixtures.posts
        .filter((post) => post.created_utc * 1000 >= Date.now() - hours * 3_600_000)
        .filter((post) => matchesSearch(`${post.title} ${post.selftext}`, query.get('q') ?? ''))
        .sort((a, b) => b.created_utc - a.created_utc);
      const after = query.get('after');
      const start = after ? found.findIndex((post) => post.name === after) + 1 : 0;
      const page = found.slice(start, start + limit);
      const more = start + limit < found.length;
      return { body: listing(page.map((data) => ({ kind: 't3', data })), more ? page.at(-1)!.name : null) };
    }
    const commentsPath = request.path.match(/^\/comments\/([a-z0-9]+)\.json$/);
    if (commentsPath) {
      const post = fixtures.posts.find((candidate) => candidate.id === commentsPath[1]);
      if (!post) return { status: 404, body: { message: 'Not Found', error: 404 } };
      if (request.query.get('sort') !== 'new') return { status: 400, body: { message: 'fake: sort=new expected', error: 400 } };
      const comments = fixtures.comments?.[post.id] ?? [];
      // Reddit ends a cut tree with a `more` stub naming the comments it left out.
      const more: RedditThing = { kind: 'more', data: { count: 0, name: 't1__', id: '_', parent_id: post.name, depth: 0, children: [] } };
      return { body: [listing([{ kind: 't3', data: post }]), listing([...comments.map((data): RedditThing => ({ kind: 't1', data })), more])] };
    }
    return null;
  }, options);
  return { ...fake, revokeTokens: () => validTokens.clear() };
}
