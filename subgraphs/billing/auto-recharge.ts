import { z } from 'zod';
import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import { UpstreamError } from '../../runtime/upstream-http.ts';
import { notFound } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { autoRechargeKey, requestAutoRechargeIfDue } from './auto-recharge-due.ts';
import { creditPaidOrder } from './order-crediting.ts';
import { topUpBounds } from './prices.ts';
import { askStripe, type CheckoutSession, createSetupCheckoutSession, requireStripe, type StripeSettings, stripeSettings } from './stripe-checkout.ts';
import { chargeOffSession, createCustomer, type PaymentIntent, paymentIntentSchema, retrieveSetupCard } from './stripe-payment-intents.ts';
import { ignoredEvent, type OrderEventOutcome, returnUrl, type TopUpContext, topUpAmountCents } from './top-up-checkout.ts';
import {
  attachPaymentIntent,
  claimDueAutoRecharges,
  failAutoRecharge,
  findOrderByPaymentIntent,
  findTopUpOrderById,
  newestAutoRecharge,
  recordUnansweredRun,
  type TopUpOrderRow,
} from './top-up-order-store.ts';
import { type CardOnFile, findCardOnFile, findWallet, saveCard, saveStripeCustomer, updateAutoRecharge, type WalletRow } from './wallet-store.ts';

/** A worker holds a recharge it sends this long: Stripe's three tries of up to 10 s each, with room. */
const leaseSeconds = 60;
/** Runs that get no answer from Stripe before the recharge is given up as failed, to wait for the user. */
const maxUnansweredRuns = 5;
const rechargesPerRun = 10;

export const autoRechargeInput = z
  .strictObject({
    enabled: z.boolean(),
    thresholdCents: z.number().int('must be whole cents').min(0, 'must be 0 or more').max(topUpBounds.maxCents, `must be at most ${topUpBounds.maxCents}`).nullish(),
    amountCents: topUpAmountCents.nullish(),
  })
  .superRefine((settings, context) => {
    for (const field of ['thresholdCents', 'amountCents'] as const) {
      if (settings.enabled && settings[field] == null) context.addIssue({ code: 'custom', path: [field], message: 'is required when enabled' });
    }
  });

export const cardSetupInput = z.strictObject({
  successUrl: returnUrl.nullish().meta({ description: 'Where the checkout page sends the user once the card is saved' }),
  cancelUrl: returnUrl.nullish().meta({ description: 'Where it sends them when they give up' }),
});

/**
 * PUT /v1/billing/auto-recharge: stores the settings, a new revision (so a
 * recharge that failed may be tried again), and recharges at once when the
 * wallet is already under the new threshold with a card saved.
 */
export async function saveAutoRechargeSettings(sql: Sql, workspaceId: string, rawInput: unknown, now: Date): Promise<void> {
  const settings = parseInput(autoRechargeInput, rawInput);
  await updateAutoRecharge(sql, workspaceId, { enabled: settings.enabled, thresholdCents: settings.thresholdCents ?? null, amountCents: settings.amountCents ?? null });
  await requestAutoRechargeIfDue(sql, workspaceId, now);
}

/**
 * Starts saving a card for auto-recharge: the workspace's Stripe customer
 * (made once) and a Checkout Session in setup mode whose page the user
 * opens. The card is stored when Stripe's webhook says the session completed.
 */
export async function startCardSetup({ sql, env }: TopUpContext, workspaceId: string, rawInput: unknown): Promise<{ checkoutUrl: string; expiresAt: Date | null }> {
  const input = parseInput(cardSetupInput, rawInput);
  const settings = requireStripe(env);
  const wallet = await findWallet(sql, workspaceId);
  if (!wallet) throw notFound('Wallet');
  const customerId = wallet.stripeCustomerId ?? (await saveStripeCustomer(sql, workspaceId, await askStripe(() => createCustomer(settings, workspaceId))));
  const back = (outcome: string) => `${settings.publicUrl}/?card_setup=${outcome}`;
  const session = await askStripe(() =>
    createSetupCheckoutSession(settings, {
      workspaceId,
      customerId,
      idempotencyKey: newId('cst'),
      successUrl: input.successUrl ?? back('saved'),
      cancelUrl: input.cancelUrl ?? back('cancelled'),
    }),
  );
  return { checkoutUrl: session.url, expiresAt: session.expires_at === undefined ? null : new Date(session.expires_at * 1000) };
}

/**
 * `checkout.session.completed` of a setup-mode session: the card its
 * SetupIntent saved to the workspace's customer becomes the card
 * auto-recharge charges (Stripe's id, brand, last four digits, expiry; never
 * the number), and a wallet already under its threshold recharges. A
 * session of another customer changes nothing.
 */
export async function saveCardFromSetupSession({ sql, env, now }: TopUpContext, session: CheckoutSession): Promise<void> {
  const { client_reference_id: workspaceId, customer, setup_intent: setupIntentId } = session;
  if (session.status !== 'complete' || !workspaceId || !customer || !setupIntentId) return;
  const wallet = await findWallet(sql, workspaceId);
  if (!wallet || wallet.stripeCustomerId !== customer) return;
  const settings = requireStripe(env);
  const card = await askStripe(() => retrieveSetupCard(settings, setupIntentId, customer));
  if (!card || !(await saveCard(sql, workspaceId, customer, card, now))) return;
  await requestAutoRechargeIfDue(sql, workspaceId, now);
}

/**
 * What Stripe said of a sent recharge (its answer or a `payment_intent.*`
 * event): `succeeded` credits it once, `processing` waits for the webhook,
 * anything else means the card was not charged.
 */
async function settleByIntent(sql: Sql, order: TopUpOrderRow, intent: PaymentIntent, now: Date): Promise<TopUpOrderRow> {
  if (intent.status === 'succeeded') {
    return creditPaidOrder(sql, order.id, { amountCents: intent.amount, currency: intent.currency, paymentIntentId: intent.id }, now);
  }
  if (intent.status === 'processing') {
    await attachPaymentIntent(sql, order.id, intent.id);
    return order;
  }
  const failure = {
    code: intent.last_payment_error?.code ?? intent.status,
    message: intent.last_payment_error?.message ?? `The payment ended as ${intent.status}`,
    paymentIntentId: intent.id,
  };
  return (await failAutoRecharge(sql, order.id, failure, now)) ?? order;
}

interface RunContext {
  sql: Sql;
  now: () => Date;
  log: Logger;
}

/**
 * Charges the saved card for one recharge, with the recharge's key as
 * Stripe's idempotency key: a rerun (after a crash, or an answer lost on the
 * way) gets the first run's PaymentIntent back, never a second payment. A
 * declined card or one needing its owner (`card_declined`,
 * `authentication_required`) fails the recharge, which is not tried again
 * in its epoch; no answer leaves it for a later run, a few times at most.
 */
async function sendAutoRecharge(settings: StripeSettings, { sql, now, log }: RunContext, order: TopUpOrderRow): Promise<void> {
  const wallet = (await findWallet(sql, order.workspaceId))!;
  if (!wallet.stripeCustomerId || !wallet.stripePaymentMethodId) {
    await failAutoRecharge(sql, order.id, { code: 'no_card', message: 'No card is saved for auto-recharge', paymentIntentId: null }, now());
    return;
  }
  let answer: Awaited<ReturnType<typeof chargeOffSession>>;
  try {
    answer = await chargeOffSession(settings, {
      amountCents: order.amountCents,
      customerId: wallet.stripeCustomerId,
      paymentMethodId: wallet.stripePaymentMethodId,
      idempotencyKey: order.idempotencyKey!,
      orderId: order.id,
      workspaceId: order.workspaceId,
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const runs = await recordUnansweredRun(sql, order.id);
    log.warn('Stripe did not answer an auto-recharge', { orderId: order.id, runs, error: error.message });
    if (runs >= maxUnansweredRuns) {
      await failAutoRecharge(sql, order.id, { code: 'upstream_unavailable', message: `Stripe did not answer ${runs} runs: ${error.message}`, paymentIntentId: null }, now());
    }
    return;
  }
  if (answer.answered === 'intent') {
    const settled = await settleByIntent(sql, order, answer.intent, now());
    log.info('auto-recharge answered', { orderId: order.id, paymentIntentId: answer.intent.id, status: settled.status });
    return;
  }
  await failAutoRecharge(sql, order.id, { code: answer.code, message: answer.message, paymentIntentId: answer.paymentIntentId }, now());
  log.info('auto-recharge refused', { orderId: order.id, code: answer.code });
}

/**
 * One pass of the workers' auto-recharge runner: takes the recharges due
 * (and those a dead worker held) and sends each. Returns how many it took.
 */
export async function runDueAutoRecharges(env: NodeJS.ProcessEnv, context: RunContext): Promise<number> {
  const settings = stripeSettings(env);
  if (!settings) return 0;
  const orders = await claimDueAutoRecharges(context.sql, context.now(), leaseSeconds, rechargesPerRun);
  for (const order of orders) {
    try {
      await sendAutoRecharge(settings, context, order);
    } catch (error) {
      context.log.error('auto-recharge failed; it runs again when its lease ends', { orderId: order.id, error: String(error) });
    }
  }
  return orders.length;
}

/**
 * `payment_intent.*` events of a recharge: `succeeded` credits it (once,
 * whether Stripe's answer was recorded first or not), `payment_failed`
 * fails it, `processing` waits. Intents that are not Earshot's recharges are
 * ignored.
 */
export async function settleAutoRechargeFromEvent(sql: Sql, object: unknown, now: Date): Promise<OrderEventOutcome> {
  const parsed = paymentIntentSchema.safeParse(object);
  if (!parsed.success) return ignoredEvent;
  const intent = parsed.data;
  const named = intent.metadata?.order_id ? await findTopUpOrderById(sql, intent.metadata.order_id) : undefined;
  const order = named ?? (await findOrderByPaymentIntent(sql, intent.id));
  if (!order || order.source !== 'auto_recharge' || (order.paymentIntentId !== null && order.paymentIntentId !== intent.id)) return ignoredEvent;
  return { orderId: order.id, status: (await settleByIntent(sql, order, intent, now)).status };
}

export type AutoRechargeState = 'off' | 'needs_card' | 'ready' | 'charging' | 'failed';

/** Auto-recharge as the wallet reports it (spec 2.11.1): the settings, the card, the newest try and where that leaves things. */
export interface AutoRechargeReport {
  enabled: boolean;
  thresholdCents: number | null;
  amountCents: number | null;
  state: AutoRechargeState;
  card: CardOnFile | null;
  lastAttempt: {
    orderId: string;
    status: TopUpOrderRow['status'];
    amountCents: number;
    failureCode: string | null;
    failureMessage: string | null;
    attemptedAt: Date;
    settledAt: Date | null;
  } | null;
}

/** What the wallet report reads for its auto-recharge part besides the wallet row: the card and the newest recharge. */
export const readAutoRechargeParts = (sql: Queryable, workspaceId: string) =>
  Promise.all([findCardOnFile(sql, workspaceId), newestAutoRecharge(sql, workspaceId)]);

/** The auto-recharge part of the wallet report, from the wallet row and `readAutoRechargeParts`. */
export function autoRechargeReport(wallet: WalletRow, [card, last]: Awaited<ReturnType<typeof readAutoRechargeParts>>): AutoRechargeReport {
  const state: AutoRechargeState = !wallet.autoRechargeEnabled
    ? 'off'
    : !card
      ? 'needs_card'
      : last?.status === 'pending'
        ? 'charging'
        : last?.status === 'failed' && last.idempotencyKey === autoRechargeKey(wallet)
          ? 'failed'
          : 'ready';
  return {
    enabled: wallet.autoRechargeEnabled,
    thresholdCents: wallet.autoRechargeThresholdCents,
    amountCents: wallet.autoRechargeAmountCents,
    state,
    card,
    lastAttempt: last
      ? {
          orderId: last.id,
          status: last.status,
          amountCents: last.amountCents,
          failureCode: last.failureCode,
          failureMessage: last.failureMessage,
          attemptedAt: last.createdAt,
          settledAt: last.creditedAt ?? last.failedAt,
        }
      : null,
  };
}
