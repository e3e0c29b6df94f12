import type { Queryable } from '../../runtime/database.ts';
import { countKeywordRunStates, noKeywords, resumeKeywordsPausedForBalance } from '../keywords/keyword-run-state-store.ts';
import { recordAccountEvent, recordAccountEvents } from '../team/account-event-store.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import { centsOf } from './prices.ts';
import { keywordResumed, walletLow, walletResumed } from './run-state-events.ts';
import { effectiveFifteenths, eventWallet, resumeShortfallFifteenths, type WalletState } from './wallet-figures.ts';
import { findWallet, markLowRecorded, type WalletRow } from './wallet-store.ts';

/** The daily tick has charged (or paused) the wallet's keywords for the day holding `now`. */
const settledOn = (wallet: WalletRow, now: Date) => wallet.settledThrough !== null && wallet.settledThrough >= billingDayOf(now);

/** The wallet's state at `now`: its balance and its keywords by run state. */
export async function loadWalletState(sql: Queryable, wallet: WalletRow, now: Date): Promise<WalletState> {
  const today = billingDayOf(now);
  const counts = await countKeywordRunStates(sql, [wallet.workspaceId], startOfBillingDay(today));
  return {
    balanceFifteenths: wallet.balanceFifteenths,
    lastCreditFifteenths: wallet.lastCreditFifteenths,
    settledToday: settledOn(wallet, now),
    keywords: counts.get(wallet.workspaceId) ?? noKeywords,
  };
}

/** The effective balance; once the tick has settled today (the usual case) nothing is pending and no keyword needs counting. */
export async function effectiveBalance(sql: Queryable, wallet: WalletRow, now: Date): Promise<number> {
  if (settledOn(wallet, now)) return wallet.balanceFifteenths;
  return effectiveFifteenths(await loadWalletState(sql, wallet, now));
}

/**
 * Records wallet.low for the wallet as it is now, once per credit epoch
 * (3.2), after a charge took the effective balance to 20% of the last credit.
 */
export async function recordWalletLow(sql: Queryable, workspaceId: string, now: Date): Promise<void> {
  const wallet = (await findWallet(sql, workspaceId))!;
  if (wallet.lowRecordedEpoch >= wallet.creditEpoch) return;
  const state = await loadWalletState(sql, wallet, now);
  await recordAccountEvent(sql, walletLow(workspaceId, eventWallet(state), centsOf(state.lastCreditFifteenths), now));
  await markLowRecorded(sql, workspaceId);
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
