import type { KeywordMatch, MatchablePost } from '../subgraphs/keywords/index.ts';
import { type MentionRow, storeMatchedMentions } from '../subgraphs/mentions/index.ts';
import type { JobContext } from './job-definition.ts';

/** Mentions a scoring job takes at once (one classifier batch). */
export const scoringBatchSize = 20;

/**
 * Matched posts stored and charged per transaction: enough that a batch
 * costs a handful of statements and one commit, few enough that the wallets
 * and keywords it locks are not held from other workers for long.
 */
const postsPerTransaction = 250;

export interface IngestOutcome {
  stored: MentionRow[];
  /** Keywords that got at least one new mention: their pollers reset their back-off. */
  keywordIdsWithFinds: Set<string>;
}

type IngestContext = Pick<JobContext, 'sql' | 'clock' | 'send' | 'log'>;

/**
 * The one path from fetched posts to stored mentions: match every post,
 * then store, charge and announce them in batches, and queue scoring. A
 * rejected post is never stored.
 */
export async function ingestPosts(
  context: IngestContext,
  posts: MatchablePost[],
  match: (post: MatchablePost) => KeywordMatch[],
): Promise<IngestOutcome> {
  const matched = posts.map((post) => ({ post, matches: match(post) })).filter((item) => item.matches.length > 0);
  const stored: MentionRow[] = [];
  for (let i = 0; i < matched.length; i += postsPerTransaction) {
    const batch = matched.slice(i, i + postsPerTransaction);
    const at = context.clock.now();
    stored.push(...((await context.sql.begin((tx) => storeMatchedMentions(tx, batch, at))) as MentionRow[]));
  }
  for (let i = 0; i < stored.length; i += scoringBatchSize) {
    await context.send('score', { mentionIds: stored.slice(i, i + scoringBatchSize).map((mention) => mention.id) });
  }
  if (stored.length) context.log.debug('stored mentions', { count: stored.length });
  return { stored, keywordIdsWithFinds: new Set(stored.map((mention) => mention.keywordId)) };
}
