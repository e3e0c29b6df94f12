import type postgres from 'postgres';
import { admitChargedMentions } from './mention-admission.ts';
import { mentionPriority } from './mention-priority.ts';
import { announceMentionsCreated, announceMentionsUpdated, discardMentions, lockUnscoredMentions, markClassificationFailed, type MentionRow, saveClassifications, type StoredClassification } from './mention-store.ts';
import { watchThreads } from './comment-store.ts';
import { scoredRelevant } from './relevance.ts';
import { threadWindow } from './thread-windows.ts';

/** A mention the classifier judged, and whether its keyword reads comments. */
export interface ScoredMention {
  mention: MentionRow;
  classification: Omit<StoredClassification, 'priority'>;
  commentsEnabled: boolean;
}

/**
 * What one scoring batch decides, in the caller's transaction. A mention is
 * charged here, never at storage: an exact match that scored, relevant or
 * not (1.7), and a words-close-together match only when it scored relevant
 * (2.1.3 `exactPhrase`; the others are discarded). What the wallet or the
 * cap refuses is discarded; every kept mention gets its classification and
 * priority (2.4); a relevant one whose keyword reads comments starts a
 * thread watch (2.1.2). Mentions the classifier failed on are marked so,
 * never guessed and never charged (2.5 `unscored`): they stay stored until
 * a retry scores them. The mentions charged now wake `mentionCreated`
 * subscribers at the commit, scored; one kept that was announced before
 * (charged at storage by an older version) wakes `mentionUpdated`. A
 * mention scored meanwhile by another run is left as that run recorded it.
 * `unjudged` mentions were left unclassified as likely refused
 * (mentionsLikelyRefused): those the charge refuses now are discarded as
 * scored ones would be, whatever their kind; those it would take are left
 * stored and unscored, uncharged and not failed, for the caller to score
 * again. Returns the failed ids it marked, for the caller to retry, and
 * the unjudged ids to score.
 */
export async function recordScores(
  tx: postgres.TransactionSql<{}>,
  judged: readonly ScoredMention[],
  failed: readonly string[],
  now: Date,
  unjudged: readonly MentionRow[] = [],
): Promise<{ failed: string[]; toScore: string[] }> {
  const open = await lockUnscoredMentions(tx, [...judged.map(({ mention }) => mention.id), ...failed, ...unjudged.map((mention) => mention.id)]);
  const scored = judged.filter(({ mention }) => open.has(mention.id));
  const failedIds = failed.filter((id) => open.has(id));
  const relevant = ({ classification }: ScoredMention) => scoredRelevant(classification.relevance);
  const chargeable = scored.filter((item) => !item.mention.fuzzy || relevant(item));
  const { refused, chargedNow, toScore } = await admitChargedMentions(
    tx,
    chargeable.map(({ mention }) => mention),
    unjudged.filter((mention) => open.has(mention.id)),
    now,
  );
  const kept = chargeable.filter(({ mention }) => !refused.has(mention.id));
  const watches = kept.flatMap((item) => {
    const { mention } = item;
    const window = threadWindow(mention.platform, mention.publishedAt, mention.createdAt);
    return window && relevant(item) && item.commentsEnabled ? [{ mentionId: mention.id, firstCheckAt: window.firstReadAt, until: window.until }] : [];
  });
  // Sent together, in one round trip, and run in this order: none of them reads what another writes.
  await Promise.all([
    discardMentions(tx, [...refused, ...scored.filter((item) => item.mention.fuzzy && !relevant(item)).map(({ mention }) => mention.id)]),
    saveClassifications(
      tx,
      kept.map(({ mention, classification }) => ({
        mentionId: mention.id,
        classification: {
          ...classification,
          priority: mentionPriority({ relevance: classification.relevance, intents: classification.intents, followers: mention.authorFollowers, publishedAt: mention.publishedAt, now }),
        },
      })),
      now,
    ),
    watchThreads(tx, watches),
    markClassificationFailed(tx, failedIds),
    announceMentionsCreated(tx, kept.filter(({ mention }) => chargedNow.has(mention.id)).map(({ mention }) => mention)),
    announceMentionsUpdated(tx, kept.filter(({ mention }) => !chargedNow.has(mention.id)).map(({ mention }) => mention)),
  ]);
  return { failed: failedIds, toScore: [...toScore] };
}
