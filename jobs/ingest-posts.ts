import { chargeMatchedItem } from '../subgraphs/billing/charging.ts';
import type { KeywordMatch } from '../subgraphs/keywords/matching/matcher.ts';
import type { MatchablePost } from '../subgraphs/keywords/matching/prepared-post.ts';
import { announceMentionsCreated, discardMentions, type MentionRow, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { JobContext } from './job-definition.ts';

/** Mentions a scoring job takes at once (one classifier batch). */
export const scoringBatchSize = 20;

export interface IngestOutcome {
  stored: MentionRow[];
  /** Keywords that got at least one new mention: their pollers reset their back-off. */
  keywordIdsWithFinds: Set<string>;
}

/**
 * The one path from fetched posts to stored mentions: match, store once per
 * keyword, charge (spec 1.7, 2.1.1: a match the cap or the wallet cannot
 * take is not kept), announce, and queue scoring. A rejected post is never
 * stored. Words-close-together matches are charged when scored relevant.
 */
export async function ingestPosts(
  context: Pick<JobContext, 'sql' | 'clock' | 'send' | 'log'>,
  posts: MatchablePost[],
  match: (post: MatchablePost) => KeywordMatch[],
): Promise<IngestOutcome> {
  const stored: MentionRow[] = [];
  const keywordIdsWithFinds = new Set<string>();
  for (const post of posts) {
    const matches = match(post);
    if (matches.length === 0) continue;
    const kept = await context.sql.begin(async (tx) => {
      const created = await storeMatchedPost(tx, post, matches);
      const refused: string[] = [];
      for (const mention of created) {
        if (mention.fuzzy) continue;
        const charge = await chargeMatchedItem(tx, {
          workspaceId: mention.workspaceId,
          keywordId: mention.keywordId,
          kind: 'mention',
          itemId: mention.id,
          at: context.clock.now(),
        });
        if (!charge.charged) refused.push(mention.id);
      }
      await discardMentions(tx, refused);
      const taken = created.filter((mention) => !refused.includes(mention.id));
      // Words-close-together matches are announced once scoring keeps them.
      await announceMentionsCreated(tx, taken.filter((mention) => !mention.fuzzy));
      return taken;
    });
    for (const mention of kept as MentionRow[]) {
      stored.push(mention);
      keywordIdsWithFinds.add(mention.keywordId);
    }
  }
  for (let i = 0; i < stored.length; i += scoringBatchSize) {
    await context.send('score', { mentionIds: stored.slice(i, i + scoringBatchSize).map((mention) => mention.id) });
  }
  if (stored.length) context.log.debug('stored mentions', { count: stored.length });
  return { stored, keywordIdsWithFinds };
}
