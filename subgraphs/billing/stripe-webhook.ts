import { z } from 'zod';
import { domainError } from '../domain-error.ts';
import { saveCardFromSetupSession, settleAutoRechargeFromEvent } from './auto-recharge.ts';
import { checkoutSessionSchema, stripeEventSchema, stripeWebhookSecret, verifyStripeSignature } from './stripe-checkout.ts';
import { ignoredEvent, type OrderEventOutcome, settleOrderFromCheckoutEvent, type TopUpContext } from './top-up-checkout.ts';

/**
 * A Stripe webhook delivery, checked against its signature over the raw
 * body, then handed to what it is about: a top-up's payment-mode Checkout
 * Session (`checkout.session.*`), a card saved through a setup-mode one
 * (`checkout.session.completed`), or an auto-recharge's PaymentIntent
 * (`payment_intent.succeeded`, `payment_intent.payment_failed`,
 * `payment_intent.processing`). Every handler is idempotent: Stripe
 * delivers at least once. Other events are acknowledged and ignored.
 */
export async function handleStripeWebhook(context: TopUpContext, rawBody: string, signature: string | null): Promise<OrderEventOutcome> {
  const secret = stripeWebhookSecret(context.env);
  if (!secret) throw domainError('webhook_not_configured', 'EARSHOT_STRIPE_WEBHOOK_SECRET is not set on this install');
  if (!signature || !verifyStripeSignature(rawBody, signature, secret, context.now)) {
    throw domainError('invalid_signature', 'The Stripe-Signature header does not sign this body with this endpoint secret, or is too old');
  }
  let event: z.infer<typeof stripeEventSchema>;
  try {
    event = stripeEventSchema.parse(JSON.parse(rawBody));
  } catch {
    throw domainError('validation_error', 'The body is not a Stripe event', { field: null });
  }
  if (event.type.startsWith('payment_intent.')) return settleAutoRechargeFromEvent(context.sql, event.data.object, context.now);
  if (!event.type.startsWith('checkout.session.')) return ignoredEvent;
  const session = checkoutSessionSchema.safeParse(event.data.object);
  if (!session.success) return ignoredEvent;
  if (session.data.mode === 'setup') {
    if (event.type === 'checkout.session.completed') await saveCardFromSetupSession(context, session.data);
    return ignoredEvent;
  }
  return settleOrderFromCheckoutEvent(context.sql, event.type, session.data, context.now);
}
