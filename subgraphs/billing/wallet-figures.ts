import type { z } from 'zod';
import type { eventWalletSchema } from './account-event-data.ts';
import type { KeywordRunCounts } from './keyword-accounting-store.ts';
import { centsOf, centsToCover, keywordDayFifteenths, lowBalanceDivisor } from './prices.ts';

/** What the wallet's figures are computed from; amounts in fifteenths of a cent. */
export interface WalletState {
  balanceFifteenths: number;
  lastCreditFifteenths: number;
  /** The daily tick has charged (or paused) today: nothing is pending. */
  settledToday: boolean;
  keywords: KeywordRunCounts;
}

/** The `wallet` object of account events (spec 6.4). */
export type EventWallet = z.output<typeof eventWalletSchema>;

/**
 * Keyword days due today that the tick has not charged yet. A keyword
 * created today is not due until the next tick (3.1).
 */
export const pendingFifteenths = (state: WalletState) => (state.settledToday ? 0 : state.keywords.due * keywordDayFifteenths);

export const effectiveFifteenths = (state: WalletState) => state.balanceFifteenths - pendingFifteenths(state);

/** What the next tick charges: a day of every running keyword (at cap or not). */
export const nextDayFifteenths = (state: WalletState) => state.keywords.running * keywordDayFifteenths;

/**
 * A credit resumes the keywords paused for balance when it covers one day of
 * every keyword, running and paused (3.2); this is what is missing for that.
 */
export function resumeShortfallFifteenths(state: WalletState): number {
  if (state.keywords.resumable === 0) return 0;
  return Math.max(0, (state.keywords.running + state.keywords.resumable) * keywordDayFifteenths - effectiveFifteenths(state));
}

/** wallet.low's condition: the effective balance is at or under 20% of the last credit (3.2). */
export const isLowBalance = (effective: number, lastCreditFifteenths: number) => effective * lowBalanceDivisor <= lastCreditFifteenths;
export const isLow = (state: WalletState) => isLowBalance(effectiveFifteenths(state), state.lastCreditFifteenths);

export function eventWallet(state: WalletState): EventWallet {
  return {
    balanceCents: centsOf(state.balanceFifteenths),
    effectiveCents: centsOf(effectiveFifteenths(state)),
    nextDayCents: centsOf(nextDayFifteenths(state)),
    resumeCostCents: centsToCover(resumeShortfallFifteenths(state)),
    activeKeywords: state.keywords.running,
    pausedKeywords: state.keywords.pausedForBalance,
  };
}

export type WalletStatus = 'funded' | 'low' | 'paused';

/** Every figure of the wallet (spec 2.11), for reads. */
export interface WalletFigures extends EventWallet {
  status: WalletStatus;
  pendingCents: number;
  /** Keyword days of the running keywords plus the average daily spend on mentions and comments over the last 7 days. */
  dailyBurnCents: number;
  /** Whole days the effective balance lasts at that burn; null while nothing burns. */
  daysLeft: number | null;
  cappedKeywords: number;
  mutedKeywords: number;
  lastCreditCents: number;
  /** wallet.low fires at or under this effective balance. */
  lowBalanceCents: number;
}

export function walletFigures(state: WalletState, itemFifteenthsLast7Days: number): WalletFigures {
  const dailyBurn = nextDayFifteenths(state) + Math.round(itemFifteenthsLast7Days / 7);
  const effective = effectiveFifteenths(state);
  return {
    ...eventWallet(state),
    status: state.keywords.pausedForBalance > 0 ? 'paused' : isLow(state) ? 'low' : 'funded',
    pendingCents: centsOf(pendingFifteenths(state)),
    dailyBurnCents: centsOf(dailyBurn),
    daysLeft: dailyBurn > 0 ? Math.max(0, Math.floor(effective / dailyBurn)) : null,
    cappedKeywords: state.keywords.capped,
    mutedKeywords: state.keywords.muted,
    lastCreditCents: centsOf(state.lastCreditFifteenths),
    lowBalanceCents: centsOf(state.lastCreditFifteenths / lowBalanceDivisor),
  };
}
