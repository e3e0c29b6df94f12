import type { KeywordMatch, MatchablePost } from '../subgraphs/keywords/index.ts';
import { linkPeople, type StoredMention, type StoredMentions, storeMatchedPostsUnlinked } from '../subgraphs/mentions/index.ts';
import type { JobContext } from './job-definition.ts';

/** Mentions a scoring job takes at once (one classifier batch). */
export const scoringBatchSize = 20;

/**
 * Matched posts stored per transaction: enough that a batch
 * costs a handful of statements and one commit, few enough that the wallets
 * and keywords it locks are not held from other workers for long.
 */
const postsPerTransaction = 250;

export interface IngestOutcome {
  /** The mentions stored, to be scored and charged, as storing tells them (findMentionsByIds reads whole rows). */
  stored: StoredMention[];
  /** Keywords that got at least one new mention: their pollers reset their back-off. */
  keywordIdsWithFinds: Set<string>;
}

type IngestContext = Pick<JobContext, 'sql' | 'send' | 'log'>;

/**
 * The one path from fetched posts to stored mentions: match every post,
 * then store them in batches and queue their scoring, which charges and
 * announces them (recordScores): a mention is billed only once scored. A
 * rejected post is never stored. The scoring jobs are sent in the storing
 * transaction: a crash between the two cannot leave a mention with no
 * scoring to come.
 * People the new authors prove to be one are merged after each commit, so
 * other workers' storing never waits on it; a crash in between leaves those
 * people apart until one of them is seen new or changed again.
 */
export async function ingestPosts(
  context: IngestContext,
  posts: MatchablePost[],
  match: (post: MatchablePost) => KeywordMatch[],
): Promise<IngestOutcome> {
  const matched = posts.map((post) => ({ post, matches: match(post) })).filter((item) => item.matches.length > 0);
  const stored: StoredMention[] = [];
  for (let i = 0; i < matched.length; i += postsPerTransaction) {
    const batch = matched.slice(i, i + postsPerTransaction);
    const { mentions, sightingsToLink } = (await context.sql.begin(async (tx) => {
      const storedNow = await storeMatchedPostsUnlinked(tx, batch);
      for (let j = 0; j < storedNow.mentions.length; j += scoringBatchSize) {
        await context.send('score', { mentionIds: storedNow.mentions.slice(j, j + scoringBatchSize).map((mention) => mention.id) }, { transaction: tx });
      }
      return storedNow;
    })) as StoredMentions;
    await linkPeople(context.sql, sightingsToLink);
    stored.push(...mentions);
  }
  if (stored.length) context.log.debug('stored mentions', { count: stored.length });
  return { stored, keywordIdsWithFinds: new Set(stored.map((mention) => mention.keywordId)) };
}
