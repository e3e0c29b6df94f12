import type postgres from 'postgres';
import { chargeMatchedItems } from '../billing/index.ts';
import type { StoredMention } from './mention-store.ts';

/**
 * Charges scored mentions inside the caller's scoring transaction and tells
 * which the wallet or the caps refused (spec 1.7, 2.1.1: a match that
 * cannot be charged is not kept; discarding them and announcing the ones
 * charged now to live `mentionCreated` subscribers are the caller's, sent
 * with its other writes). A mention the ledger already holds (charged at
 * storage by an older version) is neither refused nor charged now. Every
 * charge goes through one call: the mentions may belong to several
 * workspaces, locked in one fixed order. Returns the ids refused and the
 * ids charged now.
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
  const chargedNow = new Set<string>();
  mentions.forEach((mention, i) => {
    const outcome = outcomes[i];
    if (outcome.charged) chargedNow.add(mention.id);
    else if (outcome.reason !== 'already_charged') refused.add(mention.id);
  });
  return { refused, chargedNow };
}
