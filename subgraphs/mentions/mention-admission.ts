import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { chargeMatchedItems, previewCharges } from '../billing/index.ts';
import type { StoredMention } from './mention-store.ts';

type ChargedMention = Pick<StoredMention, 'id' | 'workspaceId' | 'keywordId'>;

const mentionCharge = (mention: ChargedMention, at: Date, unjudged: boolean) => ({
  workspaceId: mention.workspaceId,
  keywordId: mention.keywordId,
  kind: 'mention' as const,
  itemId: mention.id,
  at,
  unjudged,
});

/**
 * Of these mentions, in this order, the ids the charge would refuse if it
 * ran now (at cap, paused, muted, a wallet that cannot pay), read without
 * locks: scoring leaves them unclassified rather than pay a classifier for
 * matches it will discard. Only a hint; admitChargedMentions decides.
 */
export async function mentionsLikelyRefused(sql: Queryable, mentions: readonly ChargedMention[], at: Date): Promise<Set<string>> {
  const outcomes = await previewCharges(sql, mentions.map((mention) => mentionCharge(mention, at, false)));
  return new Set(mentions.filter((_, i) => !outcomes[i].charged && outcomes[i].reason !== 'already_charged').map((mention) => mention.id));
}

/**
 * Charges scored mentions inside the caller's scoring transaction and tells
 * which the wallet or the caps refused (spec 1.7, 2.1.1: a match that
 * cannot be charged is not kept; discarding them and announcing the ones
 * charged now to live `mentionCreated` subscribers are the caller's, sent
 * with its other writes). A mention the ledger already holds (charged at
 * storage by an older version) is neither refused nor charged now.
 * `unjudged` mentions (left unscored as likely refused) come after the
 * scored ones and are never charged: those refused are refused as scored
 * ones would be, the others are returned as `toScore`. Every charge goes
 * through one call: the mentions may belong to several workspaces, locked
 * in one fixed order. Returns the ids refused, charged now and to score.
 */
export async function admitChargedMentions(
  tx: postgres.TransactionSql<{}>,
  scored: readonly ChargedMention[],
  unjudged: readonly ChargedMention[],
  at: Date,
): Promise<{ refused: Set<string>; chargedNow: Set<string>; toScore: Set<string> }> {
  const mentions = [...scored, ...unjudged];
  const outcomes = await chargeMatchedItems(tx, [...scored.map((mention) => mentionCharge(mention, at, false)), ...unjudged.map((mention) => mentionCharge(mention, at, true))]);
  const refused = new Set<string>();
  const chargedNow = new Set<string>();
  const toScore = new Set<string>();
  mentions.forEach((mention, i) => {
    const outcome = outcomes[i];
    if (outcome.charged) chargedNow.add(mention.id);
    // An unjudged mention the ledger already holds is kept too: it needs its score all the same.
    else if (outcome.reason === 'unjudged' || (outcome.reason === 'already_charged' && i >= scored.length)) toScore.add(mention.id);
    else if (outcome.reason !== 'already_charged') refused.add(mention.id);
  });
  return { refused, chargedNow, toScore };
}
