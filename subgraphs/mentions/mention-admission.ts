import type postgres from 'postgres';
import { chargeMatchedItems } from '../billing/index.ts';
import { announceMentionsCreated, discardMentions, type StoredMention } from './mention-store.ts';

/**
 * Charges scored mentions, keeps the ones the wallet and the caps take
 * (spec 1.7, 2.1.1: a match that cannot be charged is not kept), discards
 * the rest and announces the ones charged now to live `mentionCreated`
 * subscribers, inside the caller's scoring transaction. A mention the
 * ledger already holds (charged at storage by an older version) is kept
 * and not announced again. Every charge goes through one call: the
 * mentions may belong to several workspaces, locked in one fixed order.
 * Returns the ids it discarded and the ids it charged now.
 */
export async function admitChargedMentions(
  tx: postgres.TransactionSql<{}>,
  mentions: readonly Pick<StoredMention, 'id' | 'workspaceId' | 'keywordId'>[],
  at: Date,
): Promise<{ refused: Set<string>; chargedNow: Set<string> }> {
  const outcomes = await chargeMatchedItems(
    tx,
    mentions.map((mention) => ({ workspaceId: mention.workspaceId, keywordId: mention.keywordId, kind: 'mention' as const, itemId: mention.id, at })),
  );
  const refused = new Set<string>();
  const chargedNow: typeof mentions[number][] = [];
  mentions.forEach((mention, i) => {
    const outcome = outcomes[i];
    if (outcome.charged) chargedNow.push(mention);
    else if (outcome.reason !== 'already_charged') refused.add(mention.id);
  });
  await discardMentions(tx, [...refused]);
  await announceMentionsCreated(tx, chargedNow);
  return { refused, chargedNow: new Set(chargedNow.map((mention) => mention.id)) };
}
