import { type FakeServerOptions, type FakeUpstream, matchesSearch, startFakeServer } from './fake-server.ts';

type Resource = Record<string, unknown>;

export interface XUser extends Resource {
  id: string;
  username: string;
}

/** A user as `user.fields` returns it; a `website` comes as X shows a profile's link, a t.co address with its expansion. */
export function xUser(user: { id: string; username: string; name: string; followers: number; website?: string }): XUser {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    profile_image_url: `https://pbs.twimg.com/profile_images/${user.id}/avatar_normal.jpg`,
    public_metrics: { followers_count: user.followers, following_count: 180, tweet_count: 5120, listed_count: 12, like_count: 900 },
    ...(user.website
      ? {
          url: 'https://t.co/pr0f1leUrl',
          entities: { url: { urls: [{ start: 0, end: 23, url: 'https://t.co/pr0f1leUrl', expanded_url: user.website, display_url: user.website.replace(/^https?:\/\//, '') }] } },
        }
      : {}),
  };
}

export interface XLinkFixture {
  /** The t.co address as it appears in the text (or only in the long text of a note post). */
  url: string;
  expanded: string;
  /** A photo or video: X gives it a `media_key` and a `/photo/1` address. */
  media?: boolean;
}

export interface XTweet extends Resource {
  id: string;
  text: string;
  created_at: string;
  author_id: string;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function urlEntities(text: string, links: XLinkFixture[]) {
  return links.map((link) => {
    const start = text.indexOf(link.url);
    if (start < 0) throw new Error(`fixture: ${link.url} is not in the text`);
    return {
      start,
      end: start + link.url.length,
      url: link.url,
      expanded_url: link.expanded,
      display_url: link.expanded.replace(/^https?:\/\//, '').slice(0, 24) + (link.expanded.length > 32 ? '…' : ''),
      ...(link.media ? { media_key: `3_${start}` } : { status: 200, unwound_url: link.expanded }),
    };
  });
}

/** A post as recent search returns it with the fields Earshot asks for; text escaped as X escapes it. */
export function xTweet(tweet: { id: string; author: XUser; text: string; createdAt: Date; links?: XLinkFixture[]; replyToId?: string; lang?: string; longText?: string }): XTweet {
  const links = (tweet.links ?? []).filter((link) => tweet.text.includes(link.url));
  const longLinks = (tweet.links ?? []).filter((link) => tweet.longText?.includes(link.url));
  return {
    id: tweet.id,
    text: escapeText(tweet.text),
    created_at: tweet.createdAt.toISOString(),
    author_id: tweet.author.id,
    conversation_id: tweet.replyToId ?? tweet.id,
    edit_history_tweet_ids: [tweet.id],
    lang: tweet.lang ?? 'en',
    ...(links.length ? { entities: { urls: urlEntities(tweet.text, links) } } : {}),
    ...(tweet.replyToId ? { referenced_tweets: [{ type: 'replied_to', id: tweet.replyToId }], in_reply_to_user_id: '1' } : {}),
    ...(tweet.longText ? { note_tweet: { text: escapeText(tweet.longText), entities: { urls: urlEntities(tweet.longText, longLinks) } } } : {}),
  };
}

const problem = (status: number, title: string, detail: string) => ({
  status,
  body: { errors: [{ parameters: {}, message: detail }], title, detail, type: 'https://api.twitter.com/2/problems/invalid-request' },
});

/**
 * API v2 recent search over `tweets`: bearer token, query operators it
 * understands (`-is:retweet`, quoted phrases), the seven-day `start_time`
 * bound, `max_results` 10 to 100, `next_token` paging and the `includes`
 * expansion of authors. A rate-limit fault answers as X does: 429 with
 * `x-rate-limit-reset`, no `Retry-After`.
 */
export function startFakeX(fixtures: { tweets: XTweet[]; users: XUser[]; token?: string }, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/2/tweets/search/recent') return null;
    if (request.headers.authorization !== `Bearer ${fixtures.token ?? 'x-test-token'}`) {
      return { status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } };
    }
    const { query } = request;
    const maxResults = Number(query.get('max_results') ?? 10);
    if (!(maxResults >= 10 && maxResults <= 100)) return problem(400, 'Invalid Request', `The \`max_results\` query parameter value [${maxResults}] is not between 10 and 100`);
    const startTime = query.get('start_time');
    if (startTime && Date.parse(startTime) < Date.now() - 7 * 86_400_000) {
      return problem(400, 'Invalid Request', `Invalid 'start_time':'${startTime}'. 'start_time' must be on or after ${new Date(Date.now() - 7 * 86_400_000).toISOString()}`);
    }
    const search = query.get('query') ?? '';
    if (!/(^|\s)-is:retweet(\s|$)/.test(search)) return problem(400, 'Invalid Request', 'fake: -is:retweet expected');
    const text = search.replace(/(^|\s)-is:retweet(\s|$)/, ' ').trim();
    const found = fixtures.tweets
      .filter((tweet) => !startTime || tweet.created_at >= new Date(startTime).toISOString())
      .filter((tweet) => matchesSearch(tweet.text, text))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const offset = Number(query.get('next_token')?.replace(/^b26v89c19zqg8o3f/, '') || 0);
    const data = found.slice(offset, offset + maxResults);
    if (!data.length) return { body: { meta: { result_count: 0 } } };
    const more = offset + maxResults < found.length;
    const authorIds = new Set(data.map((tweet) => tweet.author_id));
    return {
      headers: { 'x-rate-limit-limit': '450', 'x-rate-limit-remaining': '449', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900) },
      body: {
        data,
        includes: { users: fixtures.users.filter((user) => authorIds.has(user.id)) },
        meta: { newest_id: data[0].id, oldest_id: data.at(-1)!.id, result_count: data.length, ...(more ? { next_token: `b26v89c19zqg8o3f${offset + maxResults}` } : {}) },
      },
    };
  }, {
    rateLimitResponse: (retryAfterSeconds) => ({
      status: 429,
      headers: { 'x-rate-limit-limit': '450', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + retryAfterSeconds) },
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    }),
    ...options,
  });
}
