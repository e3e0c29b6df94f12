import type { Sql } from '../../runtime/database.ts';
import { recordDueAutoRecharges } from './auto-recharge-due.ts';
import { countKeywordRunStates, insertKeywordDayCharges, type KeywordRef, noKeywords, pauseRunningKeywordsForBalance } from './keyword-accounting-store.ts';
import { type AccountEvent, recordAccountEvents } from './account-event-store.ts';
import { startOfBillingDay } from './billing-day.ts';
import { centsOf, keywordDayFifteenths } from './prices.ts';
import { keywordPausedForBalance, walletLow, walletPaused } from './run-state-events.ts';
import { eventWallet, isLow, type WalletState } from './wallet-figures.ts';
import { anyUnsettledWallet, lockUnsettledWallets, settleWallets } from './wallet-store.ts';

export interface DailyTickReport {
  workspaces: number;
  keywordDaysCharged: number;
  keywordsPaused: number;
  walletsPaused: number;
}

/**
 * The daily tick for the UTC day `day` (`YYYY-MM-DD`), run at its midnight:
 * in each wallet not yet settled for that day, when the effective balance
 * covers a day of every running keyword created before the day began, each
 * is charged the day (3.1; at-cap keywords too); when it does not, every
 * running keyword pauses for balance (3.2), with keyword.paused_for_balance
 * for each and wallet.paused. A charge that takes the balance to 20% of the
 * last credit records wallet.low; a wallet left under its auto-recharge
 * threshold (paused ones included) records an auto-recharge.
 *
 * Idempotent: each batch of wallets is locked, charged or paused and marked
 * settled in one transaction, and a keyword-day's idempotency key lets the
 * ledger hold it once. Run twice, by two workers at once, or again after a
 * crash half-way, it charges every keyword-day once.
 */
export async function chargeDailyKeywordFees(
  sql: Sql,
  day: string,
  /** `at`: when the events say it happened (default the day's midnight). */
  options: { walletsPerTransaction?: number; at?: Date } = {},
): Promise<DailyTickReport> {
  const batchSize = options.walletsPerTransaction ?? 2_000;
  const at = options.at ?? startOfBillingDay(day);
  const report: DailyTickReport = { workspaces: 0, keywordDaysCharged: 0, keywordsPaused: 0, walletsPaused: 0 };
  for (;;) {
    const settled = (await sql.begin(async (tx) => {
      const wallets = await lockUnsettledWallets(tx, day, batchSize);
      if (wallets.length === 0) return 0;
      const ids = wallets.map((wallet) => wallet.workspaceId);
      const counts = await countKeywordRunStates(tx, ids, startOfBillingDay(day));
      const uncovered = new Set(
        wallets
          .filter((wallet) => {
            const keywords = counts.get(wallet.workspaceId) ?? noKeywords;
            return keywords.running > 0 && wallet.balanceFifteenths < keywords.due * keywordDayFifteenths;
          })
          .map((wallet) => wallet.workspaceId),
      );
      const charged = await insertKeywordDayCharges(tx, ids.filter((id) => !uncovered.has(id)), day);
      const pausedByWorkspace = new Map<string, KeywordRef[]>();
      for (const keyword of await pauseRunningKeywordsForBalance(tx, [...uncovered])) {
        const list = pausedByWorkspace.get(keyword.workspaceId);
        if (list) list.push(keyword);
        else pausedByWorkspace.set(keyword.workspaceId, [keyword]);
      }

      const events: AccountEvent[] = [];
      const lowRecorded: string[] = [];
      for (const wallet of wallets) {
        const before: WalletState = {
          balanceFifteenths: wallet.balanceFifteenths,
          lastCreditFifteenths: wallet.lastCreditFifteenths,
          settledToday: false,
          keywords: counts.get(wallet.workspaceId) ?? noKeywords,
        };
        if (uncovered.has(wallet.workspaceId)) {
          const pausedHere = pausedByWorkspace.get(wallet.workspaceId) ?? [];
          const after: WalletState = {
            ...before,
            settledToday: true,
            keywords: {
              ...before.keywords,
              running: 0,
              due: 0,
              capped: 0,
              pausedForBalance: before.keywords.pausedForBalance + pausedHere.length,
              resumable: before.keywords.resumable + pausedHere.length,
            },
          };
          const walletAfter = eventWallet(after);
          events.push(...pausedHere.map((keyword) => keywordPausedForBalance(keyword, walletAfter, at)), walletPaused(wallet.workspaceId, walletAfter, pausedHere.length, at));
          report.keywordsPaused += pausedHere.length;
          report.walletsPaused += 1;
          continue;
        }
        const days = charged.get(wallet.workspaceId) ?? 0;
        if (days === 0) continue;
        report.keywordDaysCharged += days;
        const after: WalletState = { ...before, balanceFifteenths: before.balanceFifteenths - days * keywordDayFifteenths, settledToday: true };
        if (wallet.lowRecordedEpoch < wallet.creditEpoch && isLow(after)) {
          events.push(walletLow(wallet.workspaceId, eventWallet(after), centsOf(after.lastCreditFifteenths), at));
          lowRecorded.push(wallet.workspaceId);
        }
      }
      await recordAccountEvents(tx, events);
      // Settled for the day, nothing is pending: the effective balance is the balance after today's charges.
      const afterTick = wallets.map((wallet) => ({ wallet, effectiveFifteenths: wallet.balanceFifteenths - (charged.get(wallet.workspaceId) ?? 0) * keywordDayFifteenths }));
      await recordDueAutoRecharges(tx, afterTick, at);
      await settleWallets(tx, ids, day, lowRecorded);
      return wallets.length;
    })) as number;
    report.workspaces += settled;
    // Nothing was left to lock, or another tick settled what this one waited for: stop when nothing is unsettled.
    if (settled === 0 && !(await anyUnsettledWallet(sql, day))) return report;
  }
}
