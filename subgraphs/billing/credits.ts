import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError, notFound } from '../domain-error.ts';
import { settleAutoRechargeFall } from './auto-recharge-due.ts';
import { applyOwnCaps } from './cap-transitions.ts';
import { type CreditKind, insertCredit } from './ledger-store.ts';
import { centsOf, fifteenthsPerCent } from './prices.ts';
import { resumeWalletIfCovered } from './wallet-state.ts';
import { findWallet, lockWallet, openCreditEpoch } from './wallet-store.ts';

export interface WalletCredit {
  workspaceId: string;
  /** A paid top-up or an operator's credit of a self-hosted install. */
  kind: CreditKind;
  cents: number;
  /** Names what is credited (`top_up:<order id>`): the same key is credited once. */
  idempotencyKey: string;
  at: Date;
  /** Paid by an auto-recharge: when it leaves the wallet under the threshold, no other comes due until a credit lifts it there. */
  byAutoRecharge?: boolean;
}

/**
 * Credits the wallet in the caller's transaction, once per idempotency key.
 * A credit opens a new epoch for wallet.low, ends the welcome credit (each
 * keyword gets its own cap back, 2.1.1), and resumes the keywords paused for
 * balance when it covers a day of every keyword (3.2). Keywords paused by
 * the noise brake stay paused (3.1). An auto-recharge's credit that leaves
 * the wallet under its threshold holds off the next (settleAutoRechargeFall).
 */
export async function creditWallet(tx: Queryable, credit: WalletCredit): Promise<{ credited: boolean; keywordsResumed: number }> {
  const wallet = await lockWallet(tx, credit.workspaceId);
  if (!wallet) throw notFound('Workspace');
  const fifteenths = credit.cents * fifteenthsPerCent;
  const credited = await insertCredit(tx, { workspaceId: credit.workspaceId, kind: credit.kind, fifteenths, idempotencyKey: credit.idempotencyKey, at: credit.at });
  if (!credited) return { credited: false, keywordsResumed: 0 };
  await openCreditEpoch(tx, credit.workspaceId, fifteenths);
  if (wallet.onWelcomeCredit) await applyOwnCaps(tx, credit.workspaceId, credit.at);
  const keywordsResumed = await resumeWalletIfCovered(tx, credit.workspaceId, credit.at);
  await settleAutoRechargeFall(tx, credit.workspaceId, credit.byAutoRecharge ?? false, credit.at);
  return { credited: true, keywordsResumed };
}

/** An operator's credit of a self-hosted install, at most $100,000 at once. */
export const operatorCreditMaxCents = 10_000_000;

/**
 * `earshot wallet credit`: credits a workspace from outside the payment
 * provider. `reference` makes a retried command credit once; without it
 * each run is a new credit.
 */
export async function creditWalletByOperator(
  sql: Sql,
  credit: { workspaceId: string; cents: number; reference?: string; at: Date },
): Promise<{ credited: boolean; balanceCents: number; keywordsResumed: number }> {
  if (!Number.isInteger(credit.cents) || credit.cents < 1 || credit.cents > operatorCreditMaxCents) {
    throw domainError('validation_error', `cents: must be a whole number from 1 to ${operatorCreditMaxCents}`, { field: 'cents' });
  }
  return (await sql.begin(async (tx) => {
    const outcome = await creditWallet(tx, {
      workspaceId: credit.workspaceId,
      kind: 'operator_credit',
      cents: credit.cents,
      idempotencyKey: `operator_credit:${credit.reference ?? newId('opc')}`,
      at: credit.at,
    });
    return { ...outcome, balanceCents: centsOf((await findWallet(tx, credit.workspaceId))!.balanceFifteenths) };
  })) as { credited: boolean; balanceCents: number; keywordsResumed: number };
}
