import type { Queryable, Sql } from '../../runtime/database.ts';
import { fifteenthsPerCent } from './prices.ts';
import { insertDueAutoRecharges } from './top-up-order-store.ts';
import { effectiveBalances } from './wallet-state.ts';
import { findWallet, lockWallet, setAutoRechargeAwaitingRise, type WalletRow } from './wallet-store.ts';

/** A wallet as a charge, the daily tick or a user's change left it, with its effective balance then (fifteenths). */
export interface AutoRechargeCandidate {
  wallet: WalletRow;
  effectiveFifteenths: number;
}

/**
 * The one try an auto-recharge gets (spec 3.2 "one per credit", like
 * wallet.low): per credit epoch, and again after each change the user makes
 * (settings, a new card). Sent to Stripe as the PaymentIntent's idempotency
 * key, so however often the try runs Stripe makes one payment for it.
 */
export const autoRechargeKey = (wallet: Pick<WalletRow, 'workspaceId' | 'creditEpoch' | 'autoRechargeRevision'>) =>
  `auto_recharge:${wallet.workspaceId}:${wallet.creditEpoch}.${wallet.autoRechargeRevision}`;

/** Auto-recharge is on, with a saved card to charge, and no recharge of this fall under the threshold has been credited. */
export const autoRechargeArmed = (wallet: WalletRow) =>
  wallet.autoRechargeEnabled &&
  wallet.stripePaymentMethodId !== null &&
  wallet.autoRechargeThresholdCents !== null &&
  wallet.autoRechargeAmountCents !== null &&
  !wallet.autoRechargeAwaitingRise;

/**
 * In the transaction that moved the wallets (locked), records an
 * auto-recharge for each whose effective balance is now under its threshold
 * (spec 2.11.1): the workers send it to Stripe once this commits. A key that
 * had its try, or a recharge still in flight, records nothing.
 */
export async function recordDueAutoRecharges(tx: Queryable, candidates: readonly AutoRechargeCandidate[], at: Date): Promise<void> {
  const due = candidates
    .filter(({ wallet, effectiveFifteenths }) => autoRechargeArmed(wallet) && effectiveFifteenths < wallet.autoRechargeThresholdCents! * fifteenthsPerCent)
    .map(({ wallet }) => ({ workspaceId: wallet.workspaceId, idempotencyKey: autoRechargeKey(wallet) }));
  await insertDueAutoRecharges(tx, due, at);
}

/** After a change of the user's (settings saved, a card saved): a wallet already under its threshold recharges now. */
export async function requestAutoRechargeIfDue(sql: Sql, workspaceId: string, now: Date): Promise<void> {
  await sql.begin(async (tx) => {
    const wallet = await lockWallet(tx, workspaceId);
    if (!wallet || !autoRechargeArmed(wallet)) return;
    const effective = (await effectiveBalances(tx, [wallet], now)).get(workspaceId)!;
    await recordDueAutoRecharges(tx, [{ wallet, effectiveFifteenths: effective }], now);
  });
}

/**
 * After a credit, on the locked wallet: one recharge per fall under the
 * threshold. An auto-recharge whose credit leaves the effective balance
 * still under the threshold (an amount far below it) makes the wallet wait:
 * each credit opens a new epoch, so without this every later charge would
 * recharge again, a loop of payments. Any credit that brings the balance
 * back to the threshold or above ends the wait.
 */
export async function settleAutoRechargeFall(tx: Queryable, workspaceId: string, byAutoRecharge: boolean, now: Date): Promise<void> {
  const wallet = (await findWallet(tx, workspaceId))!;
  if (wallet.autoRechargeThresholdCents === null || (!byAutoRecharge && !wallet.autoRechargeAwaitingRise)) return;
  const effective = (await effectiveBalances(tx, [wallet], now)).get(workspaceId)!;
  const awaiting = effective < wallet.autoRechargeThresholdCents * fifteenthsPerCent ? byAutoRecharge || wallet.autoRechargeAwaitingRise : false;
  if (awaiting !== wallet.autoRechargeAwaitingRise) await setAutoRechargeAwaitingRise(tx, workspaceId, awaiting);
}
