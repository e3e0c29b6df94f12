import type postgres from 'postgres';
import { capAfterCharge, capReached } from './cap-transitions.ts';
import { keywordCapStates } from './cap-usage-store.ts';
import { type ChargedItemKind, insertItemCharge, isCharged, itemChargeKey } from './ledger-store.ts';
import { chargedItemFifteenths } from './prices.ts';
import { isLowBalance } from './wallet-figures.ts';
import { effectiveBalance, recordWalletLow } from './wallet-state.ts';
import { lockWallet } from './wallet-store.ts';

export interface MatchedItemCharge {
  workspaceId: string;
  keywordId: string;
  /** A matched mention, or a delivered thread comment (spec 2.1.2). */
  kind: ChargedItemKind;
  /** The mention id (`mm_…`) or the comment's id: charging the same one again is a no-op. */
  itemId: string;
  /** When it was matched or delivered: it counts in the cap period and the month holding this instant. */
  at: Date;
}

export type ChargeOutcome =
  | { charged: true }
  | {
      charged: false;
      /**
       * `already_charged`: this item was charged before (store it if it is not, never charge again);
       * `capped`: the keyword is at its cap for this period;
       * `insufficient_balance`: the effective balance cannot pay $0.008;
       * `muted`: the keyword is muted, paused or deleted.
       * In every case but `already_charged` the item must not be stored, classified or delivered (spec 1.5).
       */
      reason: 'already_charged' | 'capped' | 'insufficient_balance' | 'muted';
    };

/**
 * Before ingestion stores a match (or delivers a comment): may this keyword
 * take one more charged item now, and if so, charge it, in the caller's
 * transaction. The wallet row and then the keyword row stay locked until
 * that transaction ends, so two workers can never push a keyword past its
 * cap or the wallet below zero; store the mention in the same transaction.
 * Reaching the cap with this item caps the keyword (keyword.capped), and a
 * balance falling to 20% of the last credit records wallet.low.
 *
 * One transaction charging items of several workspaces must charge them in
 * workspace-id order (as the daily tick locks wallets), or two such
 * transactions can deadlock. A refused item is not paused for: the daily
 * tick pauses a wallet that cannot pay the next day (3.2).
 */
export async function chargeMatchedItem(tx: postgres.TransactionSql<{}>, item: MatchedItemCharge): Promise<ChargeOutcome> {
  const wallet = await lockWallet(tx, item.workspaceId);
  if (!wallet) return { charged: false, reason: 'muted' };
  if (await isCharged(tx, itemChargeKey(item.kind, item.itemId))) return { charged: false, reason: 'already_charged' };
  const [keyword] = await keywordCapStates(tx, { keywordIds: [item.keywordId] }, item.at, { lock: true });
  if (!keyword || keyword.workspaceId !== item.workspaceId || keyword.muted) return { charged: false, reason: 'muted' };
  if (keyword.pausedForCap || capReached(keyword)) return { charged: false, reason: 'capped' };
  const effective = await effectiveBalance(tx, wallet, item.at);
  if (effective < chargedItemFifteenths) return { charged: false, reason: 'insufficient_balance' };

  await insertItemCharge(tx, item);
  const charged = { ...keyword, used: keyword.used + 1, usedThisMonth: keyword.usedThisMonth + 1 };
  if (capReached(charged)) await capAfterCharge(tx, charged, item.at);
  if (wallet.lowRecordedEpoch < wallet.creditEpoch && isLowBalance(effective - chargedItemFifteenths, wallet.lastCreditFifteenths)) {
    await recordWalletLow(tx, item.workspaceId, item.at);
  }
  return { charged: true };
}
