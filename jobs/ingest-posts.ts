import { chargeMatchedItems } from '../subgraphs/billing/index.ts';
import type { KeywordMatch } from '../subgraphs/keywords/index.ts';
import type { MatchablePost } from '../subgraphs/keywords/index.ts';
import { announceMentionsCreated, discardMentions, type MatchedPost, type MentionRow, storeMatchedPosts } from '../subgraphs/mentions/index.ts';
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
 * Stores a batch of matched posts once per keyword and charges the new
 * mentions in one transaction (spec 1.7, 2.1.1: a match the cap or the
 * wallet cannot take is not kept), then announces the kept ones. Returns
 * the kept mentions.
 */
async function storeAndCharge(context: IngestContext, batch: readonly MatchedPost[]): Promise<MentionRow[]> {
  const at = context.clock.now();
  return (await context.sql.begin(async (tx) => {
    const created = await storeMatchedPosts(tx, batch);
    // Words-close-together matches are charged and announced once scoring keeps them.
    const billable = created.filter((mention) => !mention.fuzzy);
    const outcomes = await chargeMatchedItems(
      tx,
      billable.map((mention) => ({ workspaceId: mention.workspaceId, keywordId: mention.keywordId, kind: 'mention', itemId: mention.id, at })),
    );
    const refused = new Set(billable.filter((_, i) => !outcomes[i].charged).map((mention) => mention.id));
    await discardMentions(tx, [...refused]);
    await announceMentionsCreated(tx, billable.filter((mention) => !refused.has(mention.id)));
    return created.filter((mention) => !refused.has(mention.id));
  })) as MentionRow[];
}

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
    stored.push(...(await storeAndCharge(context, matched.slice(i, i + postsPerTransaction))));
  }
  for (let i = 0; i < stored.length; i += scoringBatchSize) {
    await context.send('score', { mentionIds: stored.slice(i, i + scoringBatchSize).map((mention) => mention.id) });
  }
  if (stored.length) context.log.debug('stored mentions', { count: stored.length });
  return { stored, keywordIdsWithFinds: new Set(stored.map((mention) => mention.keywordId)) };
}
