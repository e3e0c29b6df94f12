import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { recordDueAutoRecharges } from './auto-recharge-due.ts';
import { billingDayOf } from './billing-day.ts';
import { type CapPeriod, capPeriodStart } from './cap-period.ts';
import { capAfterCharge, capReached } from './cap-transitions.ts';
import { type KeywordCapState, keywordCapStates, type KeywordRunCounts } from './keyword-accounting-store.ts';
import { type ChargedItemKind, chargedKeys, insertItemCharges, itemChargeKey } from './ledger-store.ts';
import { chargedItemFifteenths, keywordDayFifteenths } from './prices.ts';
import { isLowBalance } from './wallet-figures.ts';
import { effectiveBalances, effectiveBalancesOf, keywordCountsAt, pauseWalletForBalance, recordWalletLow } from './wallet-state.ts';
import { findWallets, type WalletRow } from './wallet-store.ts';

export interface MatchedItemCharge {
  workspaceId: string;
  keywordId: string;
  /** A matched mention, or a delivered thread comment (spec 2.1.2). */
  kind: ChargedItemKind;
  /** The mention id (`mm_…`) or the comment's id: charging the same one again is a no-op. */
  itemId: string;
  /** When it was matched or delivered: it counts in the cap period and the month holding this instant. */
  at: Date;
  /**
   * A mention sent before it was scored because the charge looked likely to
   * refuse it (previewCharges): decided like the others, refusals and their
   * transitions included, but never charged; one the charge would take is
   * returned as `unjudged`, to be scored first and charged then.
   */
  unjudged?: boolean;
}

export type ChargeOutcome =
  | { charged: true }
  | {
      charged: false;
      /**
       * `already_charged`: this item was charged before (keep it, never charge again);
       * `capped`: the keyword is at its cap for this period;
       * `insufficient_balance`: the effective balance cannot pay $0.008;
       * `muted`: the keyword is muted, paused (by the wallet too, earlier in the same batch) or deleted;
       * `unjudged`: an `unjudged` item the charge would take, not charged (keep it, score it, charge it then).
       * In every case but `already_charged` the item must not be kept or delivered (spec 1.7, 2.1.1): a mention refused
       * when scored is discarded.
       */
      reason: 'already_charged' | 'capped' | 'insufficient_balance' | 'muted' | 'unjudged';
    };

const refused = (reason: Extract<ChargeOutcome, { charged: false }>['reason']): ChargeOutcome => ({ charged: false, reason });

/** The billing day a cap period holding an instant starts on. */
type PeriodStartDay = (per: CapPeriod, at: Date) => string;

/** PeriodStartDay remembered per period and instant: a batch's items share a few instants, and dates cost more than the rest of a decision. */
function periodStartDays(): PeriodStartDay {
  const days = new Map<string, string>();
  return (per, at) => {
    const key = `${per}:${at.getTime()}`;
    let day = days.get(key);
    if (day === undefined) days.set(key, (day = billingDayOf(capPeriodStart(per, at))));
    return day;
  };
}

/** A keyword's cap state at `at`: the ledger's counts plus this batch's earlier charges (items by billing day). */
function withBatchCharges(state: KeywordCapState, itemsByDay: ReadonlyMap<string, number> | undefined, at: Date, startDayOf: PeriodStartDay): KeywordCapState {
  const since = (per: CapPeriod) => {
    const start = startDayOf(per, at);
    let items = 0;
    for (const [day, count] of itemsByDay ?? []) if (day >= start) items += count;
    return items;
  };
  return { ...state, used: state.used + since(state.capPer), usedThisMonth: state.usedThisMonth + since('month') };
}

/** The locked rows a batch is decided on, as they stood before it; cap states and effective balances by instant (`getTime()`). */
interface BeforeBatch {
  wallets: ReadonlyMap<string, WalletRow>;
  capStatesAt: ReadonlyMap<number, ReadonlyMap<string, KeywordCapState>>;
  effectiveAt: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /** Idempotency keys of the items the ledger already holds. */
  chargedBefore: ReadonlySet<string>;
  /** Running keywords by workspace: a day of each is what the effective balance must keep covering. */
  runningKeywords: ReadonlyMap<string, number>;
}

/**
 * A transition a charge set off (3.1 capped, 3.2 wallet.low and paused),
 * with the keyword or wallet as that charge left it: the events then say
 * what charging one by one would have recorded, in the same order.
 */
type ChargeTransition =
  | { to: 'capped'; keyword: KeywordCapState; at: Date }
  | { to: 'low'; wallet: WalletRow; at: Date }
  | { to: 'paused'; workspaceId: string; at: Date };

/**
 * The single-item rules applied to the items one after another, in memory:
 * each item sees the charges, caps and wallet.low of the items before it.
 */
function decideCharges(items: readonly MatchedItemCharge[], before: BeforeBatch) {
  const charges: MatchedItemCharge[] = [];
  const transitions: ChargeTransition[] = [];
  const chargedKeysNow = new Set<string>();
  const spentNow = new Map<string, number>();
  const itemsByDayNow = new Map<string, Map<string, number>>();
  const cappedNow = new Set<string>();
  const lowRecordedNow = new Set<string>();
  const pausedNow = new Set<string>();
  const pause = (workspaceId: string, at: Date) => {
    pausedNow.add(workspaceId);
    transitions.push({ to: 'paused', workspaceId, at });
  };
  const startDayOf = periodStartDays();
  const outcomes = items.map((item): ChargeOutcome => {
    const wallet = before.wallets.get(item.workspaceId);
    if (!wallet) return refused('muted');
    const key = itemChargeKey(item.kind, item.itemId);
    if (before.chargedBefore.has(key) || chargedKeysNow.has(key)) return refused('already_charged');
    const stored = before.capStatesAt.get(item.at.getTime())!.get(item.keywordId);
    if (!stored || stored.workspaceId !== item.workspaceId || stored.muted || pausedNow.has(item.workspaceId)) return refused('muted');
    const keyword = withBatchCharges(stored, itemsByDayNow.get(item.keywordId), item.at, startDayOf);
    if (keyword.pausedForCap || cappedNow.has(keyword.id) || capReached(keyword)) return refused('capped');
    const spent = spentNow.get(item.workspaceId) ?? 0;
    const effective = before.effectiveAt.get(item.at.getTime())!.get(item.workspaceId)! - spent;
    const dayOfRunningKeywords = (before.runningKeywords.get(item.workspaceId) ?? 0) * keywordDayFifteenths;
    if (effective < chargedItemFifteenths) {
      pause(item.workspaceId, item.at);
      return refused('insufficient_balance');
    }
    if (item.unjudged) return refused('unjudged');

    charges.push(item);
    chargedKeysNow.add(key);
    spentNow.set(item.workspaceId, spent + chargedItemFifteenths);
    const day = startDayOf('day', item.at);
    const itemsByDay = itemsByDayNow.get(item.keywordId) ?? new Map<string, number>();
    itemsByDayNow.set(item.keywordId, itemsByDay.set(day, (itemsByDay.get(day) ?? 0) + 1));
    const charged = { ...keyword, used: keyword.used + 1, usedThisMonth: keyword.usedThisMonth + 1 };
    if (capReached(charged)) {
      cappedNow.add(keyword.id);
      transitions.push({ to: 'capped', keyword: charged, at: item.at });
    }
    const lowAfter = isLowBalance(effective - chargedItemFifteenths, wallet.lastCreditFifteenths);
    if (lowAfter && wallet.lowRecordedEpoch < wallet.creditEpoch && !lowRecordedNow.has(item.workspaceId)) {
      lowRecordedNow.add(item.workspaceId);
      const walletAfter = { ...wallet, balanceFifteenths: wallet.balanceFifteenths - spent - chargedItemFifteenths };
      transitions.push({ to: 'low', wallet: walletAfter, at: item.at });
    }
    if (effective - chargedItemFifteenths < dayOfRunningKeywords) pause(item.workspaceId, item.at);
    return { charged: true };
  });
  return { outcomes, charges, transitions, spent: spentNow };
}

/**
 * The rows a batch is decided on: its wallets, its keywords' cap states and
 * the effective balances at each instant the items name, the ledger's keys
 * of the items and each wallet's running keywords. For the charge (`lock`)
 * the wallets are locked in workspace-id order and then the keywords in id
 * order. For a preview the rows are read as they stand, and only the
 * wallets and the cap states are read, to keep it cheap (it runs before
 * every scoring transaction): no ledger keys (only an older version charged
 * at storage), no keyword counts (a balance is taken as it stands, before
 * today's keyword days the tick has still to charge, and a wallet a charge
 * leaves short of a day of its running keywords is not seen to pause). A
 * preview may then take an item the charge refuses, never refuse one the
 * charge takes but for a mention charged at storage.
 */
async function readBeforeBatch(sql: Queryable, items: readonly MatchedItemCharge[], options: { lock: boolean }): Promise<BeforeBatch> {
  const wallets = new Map((await findWallets(sql, [...new Set(items.map((item) => item.workspaceId))], options)).map((wallet) => [wallet.workspaceId, wallet]));
  const keywordIds = [...new Set(items.map((item) => item.keywordId))];
  // Cap periods and pending keyword days depend on the instant: read both at each one the items name.
  const capStatesAt = new Map<number, Map<string, KeywordCapState>>();
  const effectiveAt = new Map<number, Map<string, number>>();
  const latest = Math.max(...items.map((item) => item.at.getTime()));
  let counts = new Map<string, KeywordRunCounts>();
  for (const time of new Set(items.map((item) => item.at.getTime()))) {
    const states = await keywordCapStates(sql, { keywordIds }, new Date(time), options);
    capStatesAt.set(time, new Map(states.map((state) => [state.id, state])));
    if (!options.lock) effectiveAt.set(time, effectiveBalancesOf([...wallets.values()], counts, new Date(time)));
    else if (time === latest) {
      // Every wallet's keywords counted once at the latest instant serve its balances and the running keywords below (counted twice, a round trip of every charge before the day's tick).
      counts = await keywordCountsAt(sql, [...wallets.keys()], new Date(time));
      effectiveAt.set(time, effectiveBalancesOf([...wallets.values()], counts, new Date(time)));
    } else effectiveAt.set(time, await effectiveBalances(sql, [...wallets.values()], new Date(time)));
  }
  const chargedBefore = options.lock ? await chargedKeys(sql, items.map((item) => itemChargeKey(item.kind, item.itemId))) : new Set<string>();
  const runningKeywords = new Map([...counts].map(([workspaceId, keywords]) => [workspaceId, keywords.running]));
  return { wallets, capStatesAt, effectiveAt, chargedBefore, runningKeywords };
}

/**
 * What chargeMatchedItems would answer for these items if it ran now, read
 * without locks (and with fewer reads, see readBeforeBatch) and with
 * nothing written: a cheap look ahead for a caller about to spend on the
 * items (scoring asks it before paying a classifier). Only a hint: the rows
 * may change before the charge, which decides alone.
 */
export async function previewCharges(sql: Queryable, items: readonly MatchedItemCharge[]): Promise<ChargeOutcome[]> {
  if (items.length === 0) return [];
  return decideCharges(items, await readBeforeBatch(sql, items, { lock: false })).outcomes;
}

/**
 * When scoring keeps mentions (or before comments are delivered): may each
 * keyword take one more charged item now, and if so, charge it, in the
 * caller's transaction. The outcomes, one per item in order, are those of charging
 * the items one after another. Reaching a cap caps the keyword
 * (keyword.capped), a balance falling to 20% of the last credit records
 * wallet.low, and one falling under the auto-recharge threshold records an
 * auto-recharge for the workers to send. An effective balance left short of
 * a day of every running keyword, or unable to pay an item, pauses every
 * running keyword of the wallet for balance (3.2: a keyword is polled only
 * while the balance covers one more day of every running keyword); the
 * wallet's later items are refused as muted.
 *
 * The items' wallets are locked in workspace-id order and then their
 * keywords in id order, until the transaction ends, so two workers can never
 * push a keyword past its cap or a wallet below zero, and two transactions
 * charging items of the same workspaces in any order cannot deadlock. A
 * transaction must therefore charge everything it charges in one call; two
 * calls lock in two rounds. Keep (or discard) the items in the same
 * transaction.
 */
export async function chargeMatchedItems(tx: postgres.TransactionSql<{}>, items: readonly MatchedItemCharge[]): Promise<ChargeOutcome[]> {
  if (items.length === 0) return [];
  const before = await readBeforeBatch(tx, items, { lock: true });
  const { wallets, effectiveAt } = before;
  const latest = Math.max(...items.map((item) => item.at.getTime()));
  const { outcomes, charges, transitions, spent } = decideCharges(items, before);
  await insertItemCharges(tx, charges);
  for (const transition of transitions) {
    if (transition.to === 'capped') await capAfterCharge(tx, transition.keyword, transition.at);
    else if (transition.to === 'low') await recordWalletLow(tx, transition.wallet, transition.at);
    else await pauseWalletForBalance(tx, transition.workspaceId, transition.at);
  }
  const charged = [...spent].map(([workspaceId, fifteenths]) => ({
    wallet: wallets.get(workspaceId)!,
    effectiveFifteenths: effectiveAt.get(latest)!.get(workspaceId)! - fifteenths,
  }));
  await recordDueAutoRecharges(tx, charged, new Date(latest));
  return outcomes;
}

/** One item: chargeMatchedItems of that item alone. */
export async function chargeMatchedItem(tx: postgres.TransactionSql<{}>, item: MatchedItemCharge): Promise<ChargeOutcome> {
  const [outcome] = await chargeMatchedItems(tx, [item]);
  return outcome;
}
