import type { AccountEventData, ResumeReason } from './account-event-data.ts';
import type { KeywordRef } from './keyword-accounting-store.ts';
import type { AccountEvent } from './account-event-store.ts';
import type { EventWallet } from './wallet-figures.ts';

/**
 * The account events of spec 3.1 and 3.2, with the `data` bodies of 6.4
 * (account-event-data.ts). Each builder takes the state after the transition.
 */

export type { ResumeReason };

const keywordOf = (keyword: KeywordRef) => ({ id: keyword.id, term: keyword.term, kind: keyword.kind });

export function keywordCapped(keyword: KeywordRef, cap: { mentions: number; thisMonth: number; resumesAt: Date }, at: Date): AccountEvent {
  return {
    workspaceId: keyword.workspaceId,
    name: 'keyword.capped',
    data: {
      keyword: keywordOf(keyword),
      cap: { mentions: cap.mentions },
      thisMonth: cap.thisMonth,
      pausedAt: at.toISOString(),
      resumesAt: cap.resumesAt.toISOString(),
    } satisfies AccountEventData<'keyword.capped'>,
    occurredAt: at,
  };
}

export function keywordPausedForBalance(keyword: KeywordRef, wallet: EventWallet, at: Date): AccountEvent {
  return {
    workspaceId: keyword.workspaceId,
    name: 'keyword.paused_for_balance',
    data: { keyword: keywordOf(keyword), pausedAt: at.toISOString(), wallet } satisfies AccountEventData<'keyword.paused_for_balance'>,
    occurredAt: at,
  };
}

export function keywordResumed(keyword: KeywordRef, reason: ResumeReason, at: Date): AccountEvent {
  return {
    workspaceId: keyword.workspaceId,
    name: 'keyword.resumed',
    data: { keyword: keywordOf(keyword), reason, resumedAt: at.toISOString() } satisfies AccountEventData<'keyword.resumed'>,
    occurredAt: at,
  };
}

export function walletLow(workspaceId: string, wallet: EventWallet, lastCreditCents: number, at: Date): AccountEvent {
  return { workspaceId, name: 'wallet.low', data: { wallet, lastCreditCents, at: at.toISOString() } satisfies AccountEventData<'wallet.low'>, occurredAt: at };
}

export function walletPaused(workspaceId: string, wallet: EventWallet, keywordsPaused: number, at: Date): AccountEvent {
  return { workspaceId, name: 'wallet.paused', data: { wallet, keywordsPaused, at: at.toISOString() } satisfies AccountEventData<'wallet.paused'>, occurredAt: at };
}

export function walletResumed(workspaceId: string, wallet: EventWallet, keywordsResumed: number, at: Date): AccountEvent {
  return { workspaceId, name: 'wallet.resumed', data: { wallet, keywordsResumed, at: at.toISOString() } satisfies AccountEventData<'wallet.resumed'>, occurredAt: at };
}
