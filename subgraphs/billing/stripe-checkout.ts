import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { getUpstreamJson, upstreamBase } from '../../runtime/upstream-http.ts';

/**
 * Stripe Checkout as the payment provider of top-ups, speaking Stripe's
 * real API: a Checkout Session in `payment` mode per top-up order, and the
 * signed `checkout.session.*` webhook events that say it was paid.
 *
 * - `EARSHOT_STRIPE_SECRET_KEY`: the secret API key; without it top-ups are `billing_not_configured`.
 * - `EARSHOT_STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_…`); without it the webhook is `webhook_not_configured`.
 * - `EARSHOT_UPSTREAM_STRIPE`: API base, default `https://api.stripe.com`.
 * - `EARSHOT_PUBLIC_URL`: where the checkout page sends the payer back when the
 *   caller names no URLs; default `http://localhost:$PORT`.
 */
export interface StripeSettings {
  apiBase: string;
  secretKey: string;
  publicUrl: string;
}

export function stripeSettings(env: NodeJS.ProcessEnv): StripeSettings | null {
  const secretKey = env.EARSHOT_STRIPE_SECRET_KEY;
  if (!secretKey) return null;
  return {
    apiBase: upstreamBase('stripe', 'https://api.stripe.com', env),
    secretKey,
    publicUrl: publicUrl(env),
  };
}

export const stripeWebhookSecret = (env: NodeJS.ProcessEnv): string | null => env.EARSHOT_STRIPE_WEBHOOK_SECRET || null;

/** The fields of a Checkout Session that top-ups read. */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  url: z.string().nullable().optional(),
  status: z.enum(['open', 'complete', 'expired']).nullable().optional(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: z.number().int().nullable(),
  currency: z.string().nullable(),
  client_reference_id: z.string().nullable(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

const stripeHeaders = (settings: StripeSettings) => ({
  authorization: `Bearer ${settings.secretKey}`,
  'stripe-version': '2024-06-20',
});

/**
 * `POST /v1/checkout/sessions`, form-encoded as Stripe takes it. The order id
 * is the idempotency key, so a retried request makes no second session.
 */
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
  const session = checkoutSessionSchema.parse(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/checkout/sessions`,
      method: 'POST',
      headers: { ...stripeHeaders(settings), 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': order.id },
      body: form.toString(),
    }),
  );
  if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
  return { ...session, url: session.url };
}

/** `GET /v1/checkout/sessions/{id}`: whether the order was paid, when its webhook has not (yet) said so. */
export async function retrieveCheckoutSession(settings: StripeSettings, sessionId: string): Promise<CheckoutSession> {
  return checkoutSessionSchema.parse(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/checkout/sessions/${encodeURIComponent(sessionId)}`,
      headers: stripeHeaders(settings),
    }),
  );
}

/** The webhook event envelope; `data.object` is a Checkout Session for the `checkout.session.*` types. */
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
