import { z } from 'zod';
import { chargeMatchedItem } from '../../subgraphs/billing/index.ts';
import { createMatcher, findKeywordById, loadWorkspaceFilters, matchRulesOf } from '../../subgraphs/keywords/index.ts';
import { recordThreadRead, removeComment, storeComment, threadCommentExternalIds } from '../../subgraphs/mentions/index.ts';
import { findMentionsByIds, nextThreadRead } from '../../subgraphs/mentions/index.ts';
import type { NormalizedPost, SearchPlatform } from '../../vocabulary/normalized-post.ts';
import { searchConnectorFor } from '../connectors/search-connectors.ts';
import { ingestPosts } from '../ingest-posts.ts';
import type { JobContext, JobDefinition } from '../job-definition.ts';

const commentsPayload = z.object({
  watches: z.array(z.object({ mentionId: z.string(), lastCheckedAt: z.iso.datetime().nullable(), until: z.iso.datetime() })).min(1),
});

/** Spec 2.1.2: comments of fewer than three words are dropped and never billed. */
const wordCount = (text: string) => text.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/**
 * Reads one thread: only comments newer than the last read, the newest up to
 * the keyword's `maxPerPost` ceiling for the whole thread, each delivered
 * comment charged. A comment that names the keyword is stored as a mention
 * too, billed as that mention rather than as a comment (spec 2.1.2).
 */
async function readThread(mentionId: string, lastCheckedAt: Date | null, until: Date, context: JobContext): Promise<void> {
  const [mention] = await findMentionsByIds(context.sql, [mentionId]);
  const now = context.clock.now();
  if (!mention) return;
  const keyword = await findKeywordById(context.sql, mention.keywordId);
  const connector = searchConnectorFor(mention.platform as SearchPlatform, context.config.env, { logger: context.log });
  if (!keyword?.commentsEnabled || !connector?.comments) {
    await recordThreadRead(context.sql, mentionId, now, null);
    return;
  }
  const next = nextThreadRead(mention.platform, now, until);
  if (keyword.muted || keyword.pausedForCap) {
    await recordThreadRead(context.sql, mentionId, now, next);
    return;
  }
  const since = lastCheckedAt ?? mention.publishedAt;
  const fetched = await connector.comments({ externalId: mention.externalId, url: mention.url }, since, keyword.commentsMaxPerPost);
  const alreadyKept = await threadCommentExternalIds(context.sql, mentionId);
  const room = keyword.commentsMaxPerPost - alreadyKept.size;
  // A read cut short by a crash is run again from the same `since`: the comments it kept are not candidates twice.
  const newest = fetched
    .filter((comment) => comment.publishedAt > since && wordCount(comment.text) >= 3 && !alreadyKept.has(comment.externalId))
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
    .slice(0, Math.max(0, room));
  // The thread is already the keyword's own: its platform list does not apply to replies in it; the workspace filters do (spec 1.5).
  const matcher = createMatcher([{ ...matchRulesOf(keyword), platforms: null }], new Map([[keyword.workspaceId, await loadWorkspaceFilters(context.sql, keyword.workspaceId)]]));
  const namingKeyword: NormalizedPost[] = [];
  for (const comment of newest) {
    const namesKeyword = matcher.match(comment).length > 0;
    const kept = await context.sql.begin(async (tx) => {
      const id = await storeComment(tx, mentionId, comment, !namesKeyword);
      if (!id || namesKeyword) return true;
      const charge = await chargeMatchedItem(tx, { workspaceId: mention.workspaceId, keywordId: keyword.id, kind: 'comment', itemId: id, at: now });
      if (charge.charged || charge.reason === 'already_charged') return true;
      await removeComment(tx, id);
      return false;
    });
    if (!kept) break;
    if (namesKeyword) namingKeyword.push(comment);
  }
  await ingestPosts(context, namingKeyword, (post) => matcher.match(post));
  await recordThreadRead(context.sql, mentionId, now, next);
}

export const commentsQueue: JobDefinition<z.output<typeof commentsPayload>> = {
  name: 'comments',
  payload: commentsPayload,
  batchSize: 4,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 600,
  async handle(payloads, context) {
    for (const { watches } of payloads) {
      for (const watch of watches) {
        await readThread(watch.mentionId, watch.lastCheckedAt ? new Date(watch.lastCheckedAt) : null, new Date(watch.until), context);
      }
    }
  },
};
