import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { creditPaidOrder, orderNotCredited } from './order-crediting.ts';
import { topUpBounds } from './prices.ts';
import { askStripe, type CheckoutSession, createCheckoutSession, requireStripe, retrieveCheckoutSession } from './stripe-checkout.ts';
import {
  attachCheckoutSession,
  claimUnstartedTopUpOrder,
  failUnstartedTopUpOrders,
  findTopUpOrder,
  findTopUpOrderByCheckoutSession,
  insertTopUpOrder,
  settleTopUpOrder,
  type TopUpOrderRow,
  type TopUpStatus,
} from './top-up-order-store.ts';

export const returnUrl = z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }).max(2000, 'must be at most 2000 characters');

/** What one credit through the payment provider may add: a top-up, or an auto-recharge's amount (spec 8). */
export const topUpAmountCents = z
  .number()
  .int('must be whole cents')
  .min(topUpBounds.minCents, `must be at least ${topUpBounds.minCents} ($20)`)
  .max(topUpBounds.maxCents, `must be at most ${topUpBounds.maxCents} ($5,000)`);

export const topUpInput = z.strictObject({
  amountCents: topUpAmountCents,
  successUrl: returnUrl.nullish().meta({ description: 'Where the checkout page sends the payer after paying' }),
  cancelUrl: returnUrl.nullish().meta({ description: 'Where it sends them when they give up' }),
});

/** Where top-ups run: the database, the environment holding the provider's settings, and the request's time. */
export interface TopUpContext {
  sql: Sql;
  env: NodeJS.ProcessEnv;
  now: Date;
}

/** How long a request holds its order while Stripe makes the session: past its two 1.5 s tries, it is gone. */
const checkoutCallHoldMs = 10_000;
/**
 * Stripe keeps an idempotency key's answer at least 24 hours, and a Checkout
 * Session expires after 24 hours by default: an unstarted order older than
 * that is taken over by no retry, and fails (`failOrphanedTopUps`).
 */
const stripeIdempotencyMs = 24 * 3_600_000;

/**
 * Starts a top-up: a pending order and its Stripe Checkout Session, whose
 * URL the payer opens. The wallet is credited when the provider's webhook
 * (or a confirmation) says the order was paid. The order is saved before
 * Stripe is asked, so one whose process died before the session was saved
 * on it is taken over by the next request for the same amount.
 */
export async function startTopUp({ sql, env, now }: TopUpContext, workspaceId: string, rawInput: unknown): Promise<TopUpOrderRow> {
  // A bad amount is the caller's to fix whether or not a provider is configured.
  const input = parseInput(topUpInput, rawInput);
  const settings = requireStripe(env);
  const leaseUntil = new Date(now.getTime() + checkoutCallHoldMs);
  // A retry of a request whose process died around the call to Stripe takes its order over, and the order id
  // as idempotency key makes Stripe answer with the session it made then rather than a second one.
  const order =
    (await claimUnstartedTopUpOrder(sql, { workspaceId, amountCents: input.amountCents, since: new Date(now.getTime() - stripeIdempotencyMs), now, leaseUntil })) ??
    (await insertTopUpOrder(sql, { workspaceId, amountCents: input.amountCents, at: now, leaseUntil }));
  const back = (outcome: string) => `${settings.publicUrl}/?top_up=${order.id}&status=${outcome}`;
  try {
    const session = await askStripe(() =>
      createCheckoutSession(settings, {
        id: order.id,
        workspaceId,
        amountCents: order.amountCents,
        successUrl: input.successUrl ?? back('paid'),
        cancelUrl: input.cancelUrl ?? back('cancelled'),
      }),
    );
    // A session is one order's: a Stripe-compatible server answering every request with the same session (stripe-mock's fixture) is failing this one.
    const attached = await attachCheckoutSession(sql, order.id, session);
    if (!attached) throw domainError('upstream_unavailable', `The payment provider answered with the checkout session of another top-up (${session.id})`, { retryAfterSeconds: 30 });
    return attached;
  } catch (error) {
    await settleTopUpOrder(sql, order.id, 'failed', now);
    throw error;
  }
}

/**
 * Fails the checkout orders whose process died before their session was
 * saved and that no retry may take over any more (made over 24 hours ago),
 * so no billing view shows them pending for ever. Returns how many.
 */
export function failOrphanedTopUps(sql: Sql, now: Date): Promise<number> {
  return failUnstartedTopUpOrders(sql, { madeBy: new Date(now.getTime() - stripeIdempotencyMs), now });
}

export async function findWorkspaceTopUp(sql: Sql, workspaceId: string, orderId: string): Promise<TopUpOrderRow> {
  const order = await findTopUpOrder(sql, workspaceId, orderId);
  if (!order) throw notFound('Top-up');
  return order;
}

/**
 * Asks the provider about an order the webhook has not credited yet (the
 * payer is back from the checkout page first): credits it when paid, else
 * `order_not_credited`.
 */
export async function confirmTopUp({ sql, env, now }: TopUpContext, workspaceId: string, orderId: string): Promise<TopUpOrderRow> {
  const order = await findWorkspaceTopUp(sql, workspaceId, orderId);
  if (order.status === 'credited') return order;
  const settings = requireStripe(env);
  if (!order.checkoutSessionId) throw orderNotCredited(order, 'its checkout never started');
  const session = await askStripe(() => retrieveCheckoutSession(settings, order.checkoutSessionId!));
  if (session.payment_status === 'paid') return creditPaidOrder(sql, order.id, paidBy(session), now);
  if (session.status === 'expired') await settleTopUpOrder(sql, order.id, 'expired', now);
  throw orderNotCredited(order, session.status === 'expired' ? 'its checkout expired unpaid' : 'it has not been paid yet');
}

const paidBy = (session: CheckoutSession) => ({ amountCents: session.amount_total ?? null, currency: session.currency ?? null });

/** What a provider event did to a top-up order; nulls for an event about anything else. */
export interface OrderEventOutcome {
  orderId: string | null;
  status: TopUpStatus | null;
}

export const ignoredEvent: OrderEventOutcome = { orderId: null, status: null };

/**
 * A `checkout.session.*` event of a top-up's payment-mode session:
 * `completed` with `payment_status: paid` (or `async_payment_succeeded`)
 * credits the order once; `expired` and `async_payment_failed` settle it.
 * Sessions that are not Earshot's orders are ignored.
 */
export async function settleOrderFromCheckoutEvent(sql: Sql, type: string, session: CheckoutSession, now: Date): Promise<OrderEventOutcome> {
  const order = await findTopUpOrderByCheckoutSession(sql, session.id);
  if (!order) return ignoredEvent;
  const paid = (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') && session.payment_status === 'paid';
  if (paid) return { orderId: order.id, status: (await creditPaidOrder(sql, order.id, paidBy(session), now)).status };
  const settledAs = type === 'checkout.session.expired' ? 'expired' : type === 'checkout.session.async_payment_failed' ? 'failed' : null;
  const settled = settledAs && order.status === 'pending' ? await settleTopUpOrder(sql, order.id, settledAs, now) : undefined;
  return { orderId: order.id, status: (settled ?? order).status };
}
