import type { Queryable } from '../../runtime/database.ts';
import { keywordRunCountColumns, type KeywordRunCounts } from './keyword-accounting-store.ts';
import { type ItemCharges, itemChargesBetweenSql } from './ledger-store.ts';
import { walletColumns, type WalletRow } from './wallet-store.ts';

/** The wallet row with what its figures are computed from. */
export interface WalletWithFigureParts {
  wallet: WalletRow;
  /** Its workspace's keywords by run state, keyword days due before `dueBefore`. */
  keywords: KeywordRunCounts;
  /** Its item charges in [chargesFrom, chargesTo). */
  charges: ItemCharges;
}

/**
 * The wallet row, its keywords by run state and its item charges over a
 * period in one statement (one snapshot, one round trip), as findWallet,
 * countKeywordRunStates and itemChargesBetween would read them.
 */
export async function findWalletWithFigureParts(
  sql: Queryable,
  workspaceId: string,
  dueBefore: Date,
  chargesFrom: Date,
  chargesTo: Date,
): Promise<WalletWithFigureParts | undefined> {
  const [row] = await sql<(WalletRow & KeywordRunCounts & { chargedMentions: number; chargedComments: number; chargedFifteenths: number })[]>`
    /* findWalletWithFigureParts */
    select ${walletColumns(sql)}, run_counts.*,
           charges.mentions as charged_mentions, charges.comments as charged_comments, charges.fifteenths as charged_fifteenths
    from wallets
    cross join (select ${keywordRunCountColumns(sql, dueBefore)} from keywords where workspace_id = ${workspaceId}) run_counts
    cross join (${itemChargesBetweenSql(sql, workspaceId, chargesFrom, chargesTo)}) charges
    where wallets.workspace_id = ${workspaceId}`;
  if (!row) return undefined;
  const { running, due, capped, pausedForBalance, resumable, muted, chargedMentions, chargedComments, chargedFifteenths, ...wallet } = row;
  return {
    wallet,
    keywords: { running, due, capped, pausedForBalance, resumable, muted },
    charges: { mentions: chargedMentions, comments: chargedComments, fifteenths: chargedFifteenths },
  };
}
