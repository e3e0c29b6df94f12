import type { Sql } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { creditWallet } from './credits.ts';
import { topUpCreditKey } from './ledger-store.ts';
import { attachPaymentIntent, findTopUpOrderById, lockTopUpOrder, settleTopUpOrder, type TopUpOrderRow } from './top-up-order-store.ts';
import { lockWallet } from './wallet-store.ts';

export const orderNotCredited = (order: TopUpOrderRow, why: string) =>
  domainError('order_not_credited', `Top-up ${order.id} was not credited: ${why}`, { status: order.status });

/** What the provider reports paid for an order. */
export interface ProviderPayment {
  amountCents: number | null;
  currency: string | null;
  /** The PaymentIntent that took the money, when the report names one (auto-recharge). */
  paymentIntentId?: string;
}

/**
 * Credits a paid order exactly once, whoever reports the payment first (a
 * webhook, a retry of it, a confirmation, the provider's own answer to an
 * auto-recharge): the order row is locked and the ledger holds one credit
 * per order id. A payment reported in another amount or currency is refused.
 */
export async function creditPaidOrder(sql: Sql, orderId: string, paid: ProviderPayment, now: Date): Promise<TopUpOrderRow> {
  return (await sql.begin(async (tx) => {
    // The wallet before the order, as everything that moves money locks it first: a charge holding the
    // wallet may be recording the wallet's next recharge, which waits on this order's row.
    await lockWallet(tx, (await findTopUpOrderById(tx, orderId))!.workspaceId);
    const order = (await lockTopUpOrder(tx, orderId))!;
    if (order.status === 'credited') return order;
    // Null is a report that says nothing of it (Stripe always says; a Stripe-compatible server may not): the session was made for the order's amount in usd.
    if ((paid.amountCents !== null && paid.amountCents !== order.amountCents) || (paid.currency !== null && paid.currency.toLowerCase() !== 'usd')) {
      throw orderNotCredited(order, `the provider reports ${paid.amountCents} ${paid.currency} paid, not ${order.amountCents} usd`);
    }
    if (paid.paymentIntentId) await attachPaymentIntent(tx, order.id, paid.paymentIntentId);
    await creditWallet(tx, { workspaceId: order.workspaceId, kind: 'top_up', cents: order.amountCents, idempotencyKey: topUpCreditKey(order.id), at: now, byAutoRecharge: order.source === 'auto_recharge' });
    return (await settleTopUpOrder(tx, order.id, 'credited', now))!;
  })) as TopUpOrderRow;
}
