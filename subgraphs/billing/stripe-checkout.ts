import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { getUpstreamJson, upstreamBase, UpstreamError, whileClientWaits } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';

/**
 * Stripe as Earshot's payment provider, speaking Stripe's real API: Checkout
 * Sessions in `payment` mode for top-ups and in `setup` mode to save a card
 * for auto-recharge, and the signed webhook events that report them
 * (PaymentIntents and Customers are in stripe-payment-intents.ts).
 *
 * - `EARSHOT_STRIPE_SECRET_KEY`: the secret API key; without it, and without
 *   `EARSHOT_UPSTREAM_STRIPE`, top-ups are `billing_not_configured`.
 * - `EARSHOT_STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_…`);
 *   without it a webhook event is believed only as Stripe's API tells it
 *   (stripe-webhook.ts), and without a provider either the webhook is
 *   `webhook_not_configured`.
 * - `EARSHOT_UPSTREAM_STRIPE`: API base, default `https://api.stripe.com`.
 * - `EARSHOT_PUBLIC_URL`: where the checkout page sends the payer back when the
 *   caller names no URLs; default `http://localhost:$PORT`.
 */
export interface StripeSettings {
  apiBase: string;
  secretKey: string;
  publicUrl: string;
}

/**
 * The key sent to a Stripe-compatible server named by `EARSHOT_UPSTREAM_STRIPE`
 * when no secret key is set: the operating contract names the API base as
 * Stripe's only setting, and local test servers (Stripe's own stripe-mock
 * among them) take any test-mode key.
 */
const keyForNamedServer = 'sk_test_earshot';

export function stripeSettings(env: NodeJS.ProcessEnv): StripeSettings | null {
  const secretKey = env.EARSHOT_STRIPE_SECRET_KEY?.trim() || (env.EARSHOT_UPSTREAM_STRIPE?.trim() ? keyForNamedServer : null);
  if (!secretKey) return null;
  return {
    apiBase: upstreamBase('stripe', 'https://api.stripe.com', env, '/v1'),
    secretKey,
    publicUrl: publicUrl(env),
  };
}

export const stripeWebhookSecret = (env: NodeJS.ProcessEnv): string | null => env.EARSHOT_STRIPE_WEBHOOK_SECRET || null;

/** The settings, or `billing_not_configured` for a request that needs the provider. */
export function requireStripe(env: NodeJS.ProcessEnv): StripeSettings {
  const settings = stripeSettings(env);
  if (!settings) {
    throw domainError('billing_not_configured', 'No payment provider is configured on this install; an operator can credit the wallet with `earshot wallet credit`');
  }
  return settings;
}

/** A call to Stripe on behalf of a request: Stripe not answering is `upstream_unavailable`, for the caller to retry. */
export async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UpstreamError) throw domainError('upstream_unavailable', 'The payment provider did not answer; try again shortly', { retryAfterSeconds: 30 });
    throw error;
  }
}

/**
 * The fields of a Checkout Session that top-ups and card setups read. Only
 * `id` is needed of every answer: Stripe sends the others always, and a
 * Stripe-compatible server that leaves one out has said nothing about it (a
 * session whose payment it does not report is not paid).
 */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  mode: z.enum(['payment', 'setup', 'subscription']).optional(),
  url: z.string().nullable().optional(),
  status: z.enum(['open', 'complete', 'expired']).nullable().optional(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']).optional(),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  client_reference_id: z.string().nullable().optional(),
  customer: z.string().nullable().optional(),
  setup_intent: z.string().nullable().optional(),
  expires_at: z.number().int().optional(),
});

/** A Checkout Session as Stripe answered it; an answer that is none is Stripe failing (`upstream_unavailable` to a caller), never an internal error. */
function checkoutSessionOf(answer: unknown): CheckoutSession {
  const session = checkoutSessionSchema.safeParse(answer);
  if (!session.success) throw new UpstreamError('stripe', `answered something that is not a Checkout Session: ${session.error.issues[0].message}`);
  return session.data;
}
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const stripeHeaders = (settings: StripeSettings) => ({
  authorization: `Bearer ${settings.secretKey}`,
  'stripe-version': '2024-06-20',
});

/** A POST's headers: Stripe takes form-encoded bodies, and answers a repeated idempotency key with its first answer. */
export const stripeFormHeaders = (settings: StripeSettings, idempotencyKey: string) => ({
  ...stripeHeaders(settings),
  'content-type': 'application/x-www-form-urlencoded',
  'idempotency-key': idempotencyKey,
});

/** `POST /v1/checkout/sessions`, form-encoded as Stripe takes it; a retry with the same idempotency key makes no second session. */
async function postCheckoutSession(settings: StripeSettings, form: URLSearchParams, idempotencyKey: string): Promise<CheckoutSession & { url: string }> {
  const session = checkoutSessionOf(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/checkout/sessions`,
      method: 'POST',
      headers: stripeFormHeaders(settings, idempotencyKey),
      body: form.toString(),
      ...whileClientWaits,
    }),
  );
  if (!session.url) throw new UpstreamError('stripe', 'answered a Checkout Session without a url');
  return { ...session, url: session.url };
}

/** A top-up's Checkout Session in `payment` mode, keyed by the order id. */
export async function createCheckoutSession(
  settings: StripeSettings,
  order: { id: string; workspaceId: string; amountCents: number; successUrl: string; cancelUrl: string },
): Promise<CheckoutSession & { url: string }> {
  const form = new URLSearchParams({
    mode: 'payment',
    'line_items[0][price_data][currency]': 'usd',
    'line_items[0][price_data][unit_amount]': String(order.amountCents),
    'line_items[0][price_data][product_data][name]': 'Earshot wallet top-up',
    'line_items[0][quantity]': '1',
    success_url: order.successUrl,
    cancel_url: order.cancelUrl,
    client_reference_id: order.id,
    'metadata[order_id]': order.id,
    'metadata[workspace_id]': order.workspaceId,
  });
  return postCheckoutSession(settings, form, order.id);
}

/**
 * A Checkout Session in `setup` mode: the customer enters a card on
 * Stripe's page and Stripe attaches it to the customer for payments made
 * later without them (auto-recharge). Cards only: an off-session payment
 * needs a method Stripe can charge at once. The session's own id is unknown
 * before it exists, so a fresh idempotency key guards the retries of this
 * one call only.
 */
export async function createSetupCheckoutSession(
  settings: StripeSettings,
  setup: { workspaceId: string; customerId: string; idempotencyKey: string; successUrl: string; cancelUrl: string },
): Promise<CheckoutSession & { url: string }> {
  const form = new URLSearchParams({
    mode: 'setup',
    customer: setup.customerId,
    currency: 'usd',
    'payment_method_types[0]': 'card',
    success_url: setup.successUrl,
    cancel_url: setup.cancelUrl,
    client_reference_id: setup.workspaceId,
    'metadata[workspace_id]': setup.workspaceId,
    'setup_intent_data[metadata][workspace_id]': setup.workspaceId,
  });
  return postCheckoutSession(settings, form, setup.idempotencyKey);
}

/** `GET /v1/checkout/sessions/{id}`: whether the order was paid, when its webhook has not (yet) said so. */
export async function retrieveCheckoutSession(settings: StripeSettings, sessionId: string): Promise<CheckoutSession> {
  return checkoutSessionOf(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/checkout/sessions/${encodeURIComponent(sessionId)}`,
      headers: stripeHeaders(settings),
      ...whileClientWaits,
    }),
  );
}

/** The webhook event envelope; `data.object` is a Checkout Session for `checkout.session.*`, a PaymentIntent for `payment_intent.*`. */
export const stripeEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** Stripe's default tolerance for the signed timestamp, against replays. */
const signatureToleranceSeconds = 300;

/**
 * Checks `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=…]`: v1 is
 * HMAC-SHA256 of `${t}.${raw body}` under the endpoint secret, compared in
 * constant time, and `t` must be within five minutes of `now`.
 */
export function verifyStripeSignature(rawBody: string, header: string, secret: string, now: Date): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > signatureToleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return parts
    .filter(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/i.test(value ?? ''))
    .some(([, value]) => timingSafeEqual(Buffer.from(value, 'hex'), expected));
}
