import type { Queryable } from '../../runtime/database.ts';
import {
  countKeywordRunStates,
  type KeywordRunCounts,
  noKeywords,
  pauseRunningKeywordsForBalance,
  resumeKeywordsPausedForBalance,
} from './keyword-accounting-store.ts';
import { recordAccountEvent, recordAccountEvents } from './account-event-store.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import { centsOf } from './prices.ts';
import { keywordPausedForBalance, keywordResumed, walletLow, walletPaused, walletResumed } from './run-state-events.ts';
import { effectiveFifteenths, eventWallet, resumeShortfallFifteenths, type WalletState } from './wallet-figures.ts';
import { findWallet, markLowRecorded, type WalletRow } from './wallet-store.ts';

/** The daily tick has charged (or paused) the wallet's keywords for the day holding `now`. */
const settledOn = (wallet: WalletRow, now: Date) => wallet.settledThrough !== null && wallet.settledThrough >= billingDayOf(now);

/** Keywords by run state of these workspaces, with the keyword days due on the day holding `now`. */
export const keywordCountsAt = (sql: Queryable, workspaceIds: readonly string[], now: Date) =>
  countKeywordRunStates(sql, workspaceIds, startOfBillingDay(billingDayOf(now)));

/** The wallet's state at `now` from its row and `keywordCountsAt`. */
export const walletStateOf = (wallet: WalletRow, counts: ReadonlyMap<string, KeywordRunCounts>, now: Date): WalletState => ({
  balanceFifteenths: wallet.balanceFifteenths,
  lastCreditFifteenths: wallet.lastCreditFifteenths,
  settledToday: settledOn(wallet, now),
  keywords: counts.get(wallet.workspaceId) ?? noKeywords,
});

/** The wallet's state at `now`: its balance and its keywords by run state. */
export async function loadWalletState(sql: Queryable, wallet: WalletRow, now: Date): Promise<WalletState> {
  return walletStateOf(wallet, await keywordCountsAt(sql, [wallet.workspaceId], now), now);
}

/**
 * Each wallet's effective balance at `now`, by workspace. Once the tick has
 * settled today (the usual case) nothing is pending and no keyword needs
 * counting; the keywords of the others are counted in one statement.
 */
export async function effectiveBalances(sql: Queryable, wallets: readonly WalletRow[], now: Date): Promise<Map<string, number>> {
  const unsettled = wallets.filter((wallet) => !settledOn(wallet, now)).map((wallet) => wallet.workspaceId);
  const counts = unsettled.length ? await keywordCountsAt(sql, unsettled, now) : new Map<string, KeywordRunCounts>();
  return effectiveBalancesOf(wallets, counts, now);
}

/** effectiveBalances from keyword counts read already (keywordCountsAt `now` of at least the wallets not settled). */
export const effectiveBalancesOf = (wallets: readonly WalletRow[], counts: ReadonlyMap<string, KeywordRunCounts>, now: Date): Map<string, number> =>
  new Map(wallets.map((wallet) => [wallet.workspaceId, effectiveFifteenths(walletStateOf(wallet, counts, now))]));

/**
 * Records wallet.low (3.2) with the wallet as it stood right after the charge
 * that took its effective balance to 20% of the last credit, and marks the
 * credit epoch recorded. The caller checks the epoch was not recorded yet.
 */
export async function recordWalletLow(sql: Queryable, wallet: WalletRow, now: Date): Promise<void> {
  const state = await loadWalletState(sql, wallet, now);
  await recordAccountEvent(sql, walletLow(wallet.workspaceId, eventWallet(state), centsOf(state.lastCreditFifteenths), now));
  await markLowRecorded(sql, wallet.workspaceId);
}

/**
 * After a credit, on the locked wallet: when the effective balance covers a
 * day of every keyword, running and paused for balance, every keyword the
 * wallet paused resumes (3.1, 3.2), with keyword.resumed for each and
 * wallet.resumed. Returns how many keywords listen again.
 */
export async function resumeWalletIfCovered(sql: Queryable, workspaceId: string, now: Date): Promise<number> {
  const wallet = (await findWallet(sql, workspaceId))!;
  const before = await loadWalletState(sql, wallet, now);
  if (before.keywords.pausedForBalance === 0 || resumeShortfallFifteenths(before) > 0) return 0;
  const resumed = await resumeKeywordsPausedForBalance(sql, workspaceId);
  const after = await loadWalletState(sql, wallet, now);
  await recordAccountEvents(sql, [
    ...resumed.map((keyword) => keywordResumed(keyword, 'balance_restored', now)),
    walletResumed(workspaceId, eventWallet(after), resumed.length, now),
  ]);
  return resumed.length;
}

/**
 * On the locked wallet, once a charge left its effective balance short of a
 * day of every running keyword: a keyword runs only while the balance covers
 * one more day of every running keyword (3.2), so every running keyword
 * pauses for balance, with keyword.paused_for_balance for each and
 * wallet.paused, as the daily tick pauses a wallet that cannot pay its day.
 */
export async function pauseWalletForBalance(sql: Queryable, workspaceId: string, now: Date): Promise<void> {
  const paused = await pauseRunningKeywordsForBalance(sql, [workspaceId]);
  const after = eventWallet(await loadWalletState(sql, (await findWallet(sql, workspaceId))!, now));
  await recordAccountEvents(sql, [...paused.map((keyword) => keywordPausedForBalance(keyword, after, now)), walletPaused(workspaceId, after, paused.length, now)]);
}
