import { z } from 'zod';
import { getUpstreamJson, requestUpstream, UpstreamError, whileClientWaits } from '../../runtime/upstream-http.ts';
import { type StripeSettings, stripeFormHeaders, stripeHeaders } from './stripe-checkout.ts';

/**
 * The rest of Stripe's API auto-recharge speaks: a Customer per workspace to
 * hold the saved card, the SetupIntent a setup-mode Checkout Session leaves
 * (it names the card), and the PaymentIntent that charges the card while the
 * user is away.
 */

/** `POST /v1/customers`: one per workspace, keyed by it, so a retried call makes no second customer. */
export async function createCustomer(settings: StripeSettings, workspaceId: string): Promise<string> {
  const customer = z.object({ id: z.string() }).parse(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/customers`,
      method: 'POST',
      headers: stripeFormHeaders(settings, `customer:${workspaceId}`),
      body: new URLSearchParams({ description: `Earshot workspace ${workspaceId}`, 'metadata[workspace_id]': workspaceId }).toString(),
      ...whileClientWaits,
    }),
  );
  return customer.id;
}

/** What a saved card is known by: Stripe's id for it and what a user recognises it by. The number stays at Stripe. */
export interface SavedCard {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

const setupIntentSchema = z.object({
  id: z.string(),
  status: z.string(),
  customer: z.string().nullable(),
  payment_method: z
    .object({
      id: z.string(),
      card: z.object({ brand: z.string(), last4: z.string().regex(/^\d{4}$/), exp_month: z.number().int(), exp_year: z.number().int() }).nullable().optional(),
    })
    .nullable(),
});

/**
 * `GET /v1/setup_intents/{id}` with its payment method expanded: the card a
 * completed setup session saved, when the SetupIntent succeeded for this
 * customer with a card; null otherwise.
 */
export async function retrieveSetupCard(settings: StripeSettings, setupIntentId: string, customerId: string): Promise<SavedCard | null> {
  const intent = setupIntentSchema.parse(
    await getUpstreamJson<unknown>({
      platform: 'stripe',
      url: `${settings.apiBase}/v1/setup_intents/${encodeURIComponent(setupIntentId)}?expand[]=payment_method`,
      headers: stripeHeaders(settings),
      ...whileClientWaits,
    }),
  );
  const card = intent.payment_method?.card;
  if (intent.status !== 'succeeded' || intent.customer !== customerId || !intent.payment_method || !card) return null;
  return { paymentMethodId: intent.payment_method.id, brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

/** The fields of a PaymentIntent auto-recharge reads, in answers and in `payment_intent.*` events. */
export const paymentIntentSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  metadata: z.record(z.string(), z.string()).optional(),
  last_payment_error: z.object({ code: z.string().nullable().optional(), message: z.string().nullable().optional() }).nullable().optional(),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

const stripeErrorSchema = z.object({
  error: z.object({
    type: z.string(),
    code: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
    payment_intent: z.looseObject({ id: z.string() }).nullable().optional(),
  }),
});

/** Stripe's answer to an off-session charge: the PaymentIntent, or the refusal (a declined card, one needing its owner to authenticate). */
export type OffSessionCharge =
  | { answered: 'intent'; intent: PaymentIntent }
  | { answered: 'refusal'; code: string; message: string; paymentIntentId: string | null };

/**
 * `POST /v1/payment_intents` confirming at once, off-session, with the saved
 * card. The idempotency key makes Stripe answer a repeated call (a retry, a
 * rerun after a crash) with the first call's result instead of charging
 * again. A refusal (402 `card_error`, or a 400 such as a detached card) is an
 * answer; Stripe not answering, or still answering the same key (409), is an
 * `UpstreamError`.
 */
export async function chargeOffSession(
  settings: StripeSettings,
  charge: { amountCents: number; customerId: string; paymentMethodId: string; idempotencyKey: string; orderId: string; workspaceId: string },
): Promise<OffSessionCharge> {
  const response = await requestUpstream({
    platform: 'stripe',
    url: `${settings.apiBase}/v1/payment_intents`,
    method: 'POST',
    headers: stripeFormHeaders(settings, charge.idempotencyKey),
    body: new URLSearchParams({
      amount: String(charge.amountCents),
      currency: 'usd',
      customer: charge.customerId,
      payment_method: charge.paymentMethodId,
      off_session: 'true',
      confirm: 'true',
      description: 'Earshot wallet auto-recharge',
      'metadata[order_id]': charge.orderId,
      'metadata[workspace_id]': charge.workspaceId,
    }).toString(),
  });
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new UpstreamError('stripe', 'malformed JSON body', response.status);
  }
  if (response.status >= 200 && response.status < 300) return { answered: 'intent', intent: paymentIntentSchema.parse(body) };
  // Another request with this key is still being answered (a run whose answer was slow): no answer yet.
  if (response.status === 409) throw new UpstreamError('stripe', `HTTP 409: ${response.text.slice(0, 200)}`, 409);
  const refusal = stripeErrorSchema.safeParse(body);
  if (!refusal.success) throw new UpstreamError('stripe', `HTTP ${response.status}: ${response.text.slice(0, 200)}`, response.status);
  const { error } = refusal.data;
  return {
    answered: 'refusal',
    code: error.code ?? error.type,
    message: error.message ?? `Stripe refused the payment (HTTP ${response.status})`,
    paymentIntentId: error.payment_intent?.id ?? null,
  };
}
