import { z } from 'zod';
import { UpstreamError } from '../../runtime/upstream-http.ts';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { creditWallet } from './credits.ts';
import { topUpCreditKey } from './ledger-store.ts';
import { topUpBounds } from './prices.ts';
import {
  type CheckoutSession,
  checkoutSessionSchema,
  createCheckoutSession,
  retrieveCheckoutSession,
  type StripeSettings,
  stripeEventSchema,
  stripeSettings,
  stripeWebhookSecret,
  verifyStripeSignature,
} from './stripe-checkout.ts';
import {
  attachCheckoutSession,
  findTopUpOrder,
  findTopUpOrderById,
  insertTopUpOrder,
  lockTopUpOrder,
  settleTopUpOrder,
  type TopUpOrderRow,
  type TopUpStatus,
} from './top-up-order-store.ts';

const returnUrl = z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }).max(2000, 'must be at most 2000 characters');

export const topUpInput = z.strictObject({
  amountCents: z
    .number()
    .int('must be whole cents')
    .min(topUpBounds.minCents, `must be at least ${topUpBounds.minCents} ($20)`)
    .max(topUpBounds.maxCents, `must be at most ${topUpBounds.maxCents} ($5,000)`),
  successUrl: returnUrl.nullish().meta({ description: 'Where the checkout page sends the payer after paying' }),
  cancelUrl: returnUrl.nullish().meta({ description: 'Where it sends them when they give up' }),
});

const notConfigured = () =>
  domainError('billing_not_configured', 'No payment provider is configured on this install; an operator can credit the wallet with `earshot wallet credit`');

const orderNotCredited = (order: TopUpOrderRow, why: string) =>
  domainError('order_not_credited', `Top-up ${order.id} was not credited: ${why}`, { status: order.status });

/** Where top-ups run: the database, the environment holding the provider's settings, and the request's time. */
export interface TopUpContext {
  sql: Sql;
  env: NodeJS.ProcessEnv;
  now: Date;
}

function configured(env: NodeJS.ProcessEnv): StripeSettings {
  const settings = stripeSettings(env);
  if (!settings) throw notConfigured();
  return settings;
}

async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UpstreamError) throw domainError('upstream_unavailable', 'The payment provider did not answer; try again shortly', { retryAfterSeconds: 30 });
    throw error;
  }
}

/**
 * Starts a top-up: a pending order and its Stripe Checkout Session, whose
 * URL the payer opens. The wallet is credited when the provider's webhook
 * (or a confirmation) says the order was paid.
 */
export async function startTopUp({ sql, env, now }: TopUpContext, workspaceId: string, rawInput: unknown): Promise<TopUpOrderRow> {
  // A bad amount is the caller's to fix whether or not a provider is configured.
  const input = parseInput(topUpInput, rawInput);
  const settings = configured(env);
  const order = await insertTopUpOrder(sql, { workspaceId, amountCents: input.amountCents, at: now });
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
    return await attachCheckoutSession(sql, order.id, session);
  } catch (error) {
    await settleTopUpOrder(sql, order.id, 'failed', now);
    throw error;
  }
}

/**
 * Credits a paid order exactly once, whoever reports the payment first (the
 * webhook, a retry of it, or a confirmation): the order row is locked and
 * the ledger holds one credit per order id.
 */
async function creditPaidOrder(sql: Sql, orderId: string, session: CheckoutSession, now: Date): Promise<TopUpOrderRow> {
  return (await sql.begin(async (tx) => {
    const order = (await lockTopUpOrder(tx, orderId))!;
    if (order.status === 'credited') return order;
    if (session.amount_total !== order.amountCents || session.currency?.toLowerCase() !== 'usd') {
      throw orderNotCredited(order, `the provider reports ${session.amount_total} ${session.currency} paid, not ${order.amountCents} usd`);
    }
    await creditWallet(tx, { workspaceId: order.workspaceId, kind: 'top_up', cents: order.amountCents, idempotencyKey: topUpCreditKey(order.id), at: now });
    return (await settleTopUpOrder(tx, order.id, 'credited', now))!;
  })) as TopUpOrderRow;
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
  const settings = configured(env);
  if (!order.checkoutSessionId) throw orderNotCredited(order, 'its checkout never started');
  const session = await askStripe(() => retrieveCheckoutSession(settings, order.checkoutSessionId!));
  if (session.payment_status === 'paid') return creditPaidOrder(sql, order.id, session, now);
  if (session.status === 'expired') await settleTopUpOrder(sql, order.id, 'expired', now);
  throw orderNotCredited(order, session.status === 'expired' ? 'its checkout expired unpaid' : 'it has not been paid yet');
}

export interface StripeWebhookOutcome {
  /** The top-up the event was about; null for events about anything else. */
  orderId: string | null;
  status: TopUpStatus | null;
}

/**
 * A Stripe webhook delivery, checked against its signature over the raw
 * body. `checkout.session.completed` with `payment_status: paid` (or
 * `checkout.session.async_payment_succeeded`) credits the order once;
 * `expired` and `async_payment_failed` settle it. Events about sessions that
 * are not Earshot's orders are acknowledged and ignored.
 */
export async function handleStripeWebhook({ sql, env, now }: TopUpContext, rawBody: string, signature: string | null): Promise<StripeWebhookOutcome> {
  const secret = stripeWebhookSecret(env);
  if (!secret) throw domainError('webhook_not_configured', 'EARSHOT_STRIPE_WEBHOOK_SECRET is not set on this install');
  if (!signature || !verifyStripeSignature(rawBody, signature, secret, now)) {
    throw domainError('invalid_signature', 'The Stripe-Signature header does not sign this body with this endpoint secret, or is too old');
  }
  let event: z.infer<typeof stripeEventSchema>;
  try {
    event = stripeEventSchema.parse(JSON.parse(rawBody));
  } catch {
    throw domainError('validation_error', 'The body is not a Stripe event', { field: null });
  }
  const ignored: StripeWebhookOutcome = { orderId: null, status: null };
  if (!event.type.startsWith('checkout.session.')) return ignored;
  const session = checkoutSessionSchema.safeParse(event.data.object);
  if (!session.success || !session.data.client_reference_id) return ignored;
  const order = await findTopUpOrderById(sql, session.data.client_reference_id);
  if (!order || order.checkoutSessionId !== session.data.id) return ignored;

  const paid =
    (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') &&
    session.data.payment_status === 'paid';
  if (paid) return { orderId: order.id, status: (await creditPaidOrder(sql, order.id, session.data, now)).status };
  const settledAs = event.type === 'checkout.session.expired' ? 'expired' : event.type === 'checkout.session.async_payment_failed' ? 'failed' : null;
  const settled = settledAs && order.status === 'pending' ? await settleTopUpOrder(sql, order.id, settledAs, now) : undefined;
  return { orderId: order.id, status: (settled ?? order).status };
}
