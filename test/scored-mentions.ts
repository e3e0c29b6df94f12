import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { eventually, type TestEarshot } from './harness.ts';

/** Posts and their scoring for tests of what alerts deliver: a post is stored as matched, then the real score job runs on it. */
let sequence = 0;

export const redditPost = (text: string, handle = `dev${++sequence}`): NormalizedPost => ({
  platform: 'reddit',
  externalId: `p${++sequence}-${Date.now()}`,
  url: `https://reddit.com/r/rust/p${sequence}`,
  text,
  publishedAt: new Date(),
  replyTo: null,
  links: [],
  author: { platformId: handle, name: handle, handle, url: `https://reddit.com/u/${handle}`, avatarUrl: null, followers: 100 },
});

/** Stores the posts as mentions of the keywords, scores them (which enqueues their instant alerts) and answers their ids. */
export async function storeAndScore(earshot: TestEarshot, workspaceId: string, items: { post: NormalizedPost; keywordIds: string[] }[]): Promise<string[]> {
  const stored = await storeMatchedPosts(
    earshot.sql,
    items.map((item) => ({ post: item.post, matches: item.keywordIds.map((keywordId) => ({ keywordId, workspaceId, fuzzy: false })) })),
  );
  const ids = stored.map((mention) => mention.id);
  await earshot.sendJob('score', { mentionIds: ids });
  await eventually(
    async () => earshot.sql<{ n: number }[]>`select count(*)::int as n from mentions where id = any(${ids}) and relevance is not null`,
    ([row]) => row.n === ids.length,
  );
  return ids;
}

/** Posts the default classifier finds relevant to the Rust keyword of `rustContext`. */
export const rustContext = 'Rust the programming language: cargo, crates and the borrow checker. Not corrosion, not the survival game.';
export const relevantRustPosts = [
  'Cargo keeps rebuilding every crate after I touch build.rs in my Rust workspace. Any fix?',
  'How do I make the Rust borrow checker accept this closure over a mutable crate-level cache?',
  'Rust 1.80 made our cargo builds faster and the borrow checker errors clearer. Love it.',
];
