import type postgres from 'postgres';
import { chargeMatchedItems } from '../billing/index.ts';
import { announceMentionsCreated, discardMentions, type MatchedPost, type StoredMention, type StoredMentions, storeMatchedPostsUnlinked } from './mention-store.ts';

/**
 * Charges new mentions, keeps the ones the wallet and the caps take (spec
 * 1.7, 2.1.1: a match that cannot be charged is not kept), discards the rest
 * and announces the kept ones to live subscribers, inside the caller's
 * transaction. Every charge goes through one call: the mentions may belong
 * to several workspaces, locked in one fixed order. Returns the ids it
 * discarded.
 */
export async function admitChargedMentions(
  tx: postgres.TransactionSql<{}>,
  mentions: readonly Pick<StoredMention, 'id' | 'workspaceId' | 'keywordId'>[],
  at: Date,
): Promise<Set<string>> {
  const outcomes = await chargeMatchedItems(
    tx,
    mentions.map((mention) => ({ workspaceId: mention.workspaceId, keywordId: mention.keywordId, kind: 'mention' as const, itemId: mention.id, at })),
  );
  const refused = new Set(mentions.filter((_, i) => !outcomes[i].charged).map((mention) => mention.id));
  await discardMentions(tx, [...refused]);
  await announceMentionsCreated(tx, mentions.filter((mention) => !refused.has(mention.id)));
  return refused;
}

/**
 * Stores matched posts once per keyword and admits the exact matches at
 * once; a words-close-together match waits for scoring to find it relevant
 * before it is charged and announced (2.1.3 `exactPhrase`). Returns the
 * mentions kept, scored or still to be scored, and the sightings of their
 * authors for linkPeople once the transaction has committed.
 */
export async function storeMatchedMentions(tx: postgres.TransactionSql<{}>, batch: readonly MatchedPost[], at: Date): Promise<StoredMentions> {
  const { mentions, sightingsToLink } = await storeMatchedPostsUnlinked(tx, batch);
  const refused = await admitChargedMentions(tx, mentions.filter((mention) => !mention.fuzzy), at);
  return { mentions: mentions.filter((mention) => !refused.has(mention.id)), sightingsToLink };
}
