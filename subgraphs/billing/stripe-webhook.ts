import { z } from 'zod';
import { UpstreamError } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';
import { saveCardFromSetupSession, settleAutoRechargeFromEvent } from './auto-recharge.ts';
import { askStripe, checkoutSessionSchema, type StripeSettings, retrieveCheckoutSession, stripeEventSchema, stripeSettings, stripeWebhookSecret, verifyStripeSignature } from './stripe-checkout.ts';
import { ignoredEvent, type OrderEventOutcome, settleOrderFromCheckoutEvent, type TopUpContext } from './top-up-checkout.ts';

/**
 * A Stripe webhook delivery, checked against its signature over the raw
 * body, then handed to what it is about: a top-up's payment-mode Checkout
 * Session (`checkout.session.*`), a card saved through a setup-mode one
 * (`checkout.session.completed`), or an auto-recharge's PaymentIntent
 * (`payment_intent.succeeded`, `payment_intent.payment_failed`,
 * `payment_intent.processing`). Every handler is idempotent: Stripe
 * delivers at least once. Other events are acknowledged and ignored.
 *
 * Without a signing secret but with a provider, nothing in the body is
 * believed: a Checkout Session event is settled from the session as Stripe's
 * API answers it (Stripe's own advice for checking an event without its
 * signature), so a forged event can only make Earshot ask. PaymentIntent
 * events are then ignored: the recharge that made the PaymentIntent is
 * credited from Stripe's own answer to it.
 */
export async function handleStripeWebhook(context: TopUpContext, rawBody: string, signature: string | null): Promise<OrderEventOutcome> {
  const secret = stripeWebhookSecret(context.env);
  const askedProvider = secret ? null : stripeSettings(context.env);
  if (!secret && !askedProvider) throw domainError('webhook_not_configured', 'Neither EARSHOT_STRIPE_WEBHOOK_SECRET nor a payment provider is set on this install');
  if (secret && (!signature || !verifyStripeSignature(rawBody, signature, secret, context.now))) {
    throw domainError('invalid_signature', 'The Stripe-Signature header does not sign this body with this endpoint secret, or is too old');
  }
  let event: z.infer<typeof stripeEventSchema>;
  try {
    event = stripeEventSchema.parse(JSON.parse(rawBody));
  } catch {
    throw domainError('validation_error', 'The body is not a Stripe event', { field: null });
  }
  if (event.type.startsWith('payment_intent.')) return askedProvider ? ignoredEvent : settleAutoRechargeFromEvent(context.sql, event.data.object, context.now);
  if (!event.type.startsWith('checkout.session.')) return ignoredEvent;
  const session = checkoutSessionSchema.safeParse(askedProvider ? await sessionAsStripeHasIt(askedProvider, event.data.object) : event.data.object);
  if (!session.success) return ignoredEvent;
  if (session.data.mode === 'setup') {
    if (event.type === 'checkout.session.completed') await saveCardFromSetupSession(context, session.data);
    return ignoredEvent;
  }
  return settleOrderFromCheckoutEvent(context.sql, event.type, session.data, context.now);
}

/** The Checkout Session an unsigned event names, read back from Stripe; a session Stripe does not know is a forged event. */
async function sessionAsStripeHasIt(settings: StripeSettings, claimed: Record<string, unknown>): Promise<unknown> {
  if (typeof claimed.id !== 'string') return null;
  const sessionId = claimed.id;
  return askStripe(async () => {
    try {
      return await retrieveCheckoutSession(settings, sessionId);
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) {
        throw domainError('invalid_signature', 'Stripe knows no Checkout Session with the id this unsigned event names');
      }
      throw error;
    }
  });
}
