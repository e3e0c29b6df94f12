import { z } from 'zod';
import { autoRechargeInput, cardSetupInput, topUpInput, usageBreakdownInput } from '../../subgraphs/billing/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const cents = z.number().int();
const count = z.number().int().min(0);
const timestamp = z.iso.datetime();

const costFields = 'keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents';
const costShape = {
  keywordDays: count,
  keywordCents: cents,
  billableMentions: count,
  mentionCents: cents,
  billableComments: count,
  commentCents: cents,
  totalCents: cents.meta({ description: 'The sum of the three cents figures' }),
};
const costTotalsSchema = z
  .object(costShape)
  .meta({ id: 'CostTotals', description: 'Cost at list price; each cents figure is its exact total rounded once (spec 2.1.4)' });

const walletFields = `
  status balanceCents pendingCents effectiveCents dailyBurnCents daysLeft nextDayCents resumeCostCents
  activeKeywords pausedKeywords cappedKeywords mutedKeywords lastCreditCents lowBalanceCents onWelcomeCredit
  welcomeCredit { cents active capMentions capPer }
  lastTopUp { amountCents creditedAt source orderId }
  topUpBounds { minCents maxCents }
  autoRecharge {
    enabled thresholdCents amountCents state
    card { brand last4 expMonth expYear savedAt }
    lastAttempt { orderId status amountCents failureCode failureMessage attemptedAt settledAt }
  }
  thisMonth { ${costFields} }`;

const walletSchema = z
  .object({
    status: z.enum(['funded', 'low', 'paused']).meta({
      description: '`low`: the effective balance is at or under 20% of the last credit; `paused`: the wallet paused the keywords for balance',
    }),
    balanceCents: cents.meta({ description: 'Credits minus charges' }),
    pendingCents: cents.meta({ description: "Charges due but not in the balance yet: today's keyword days before the daily tick (UTC midnight) charges them" }),
    effectiveCents: cents.meta({ description: 'Balance minus pending charges: what pausing and resuming go by' }),
    dailyBurnCents: cents.meta({ description: 'A day of every running keyword plus the average daily mention and comment spend of the last 7 days' }),
    daysLeft: count.nullable().meta({ description: 'Whole days the effective balance lasts at the daily burn; null while nothing burns' }),
    nextDayCents: cents.meta({ description: 'What the next daily tick charges: 500/30 cents for every running keyword, rounded once' }),
    resumeCostCents: cents.meta({ description: 'What a credit must add to resume the keywords paused for balance (one day of every keyword); 0 when none is paused' }),
    activeKeywords: count.meta({ description: 'Running (unmuted) keywords, at their cap or not' }),
    pausedKeywords: count.meta({ description: 'Keywords paused for balance' }),
    cappedKeywords: count.meta({ description: 'Running keywords at their cap (still charged a day)' }),
    mutedKeywords: count.meta({ description: 'Keywords muted by a user or by the noise brake' }),
    lastCreditCents: cents.meta({ description: 'The last credit: welcome, top-up or operator' }),
    lowBalanceCents: cents.meta({ description: '`wallet.low` is sent once per credit when the effective balance reaches this (20% of the last credit)' }),
    onWelcomeCredit: z.boolean().meta({ description: 'True until the first top-up: keywords carry the welcome cap' }),
    welcomeCredit: z.object({
      cents: cents.meta({ example: 580 }),
      active: z.boolean(),
      capMentions: count.meta({ description: 'Charged items a keyword may collect a month on welcome credit', example: 200 }),
      capPer: z.string().meta({ example: 'month' }),
    }),
    lastTopUp: z
      .object({
        amountCents: cents,
        creditedAt: timestamp,
        source: z.enum(['stripe', 'operator']),
        orderId: z.string().nullable().meta({ description: 'The top-up order, for a Stripe top-up' }),
      })
      .nullable()
      .meta({ description: 'The newest paid credit; null before the first' }),
    topUpBounds: z.object({ minCents: cents.meta({ example: 2000 }), maxCents: cents.meta({ example: 500000 }) }),
    autoRecharge: z
      .object({
        enabled: z.boolean(),
        thresholdCents: cents.nullable().meta({ description: 'Recharge when the effective balance falls under this' }),
        amountCents: cents.nullable().meta({ description: 'How much each recharge adds' }),
        state: z.enum(['off', 'needs_card', 'ready', 'charging', 'failed']).meta({
          description:
            '`off`: not enabled; `needs_card`: enabled, no card saved yet; `ready`: recharges when the effective balance falls under the threshold; `charging`: a recharge is with Stripe; `failed`: the last recharge failed and none is tried again until a top-up, a new card or new settings',
        }),
        card: z
          .object({
            brand: z.string().meta({ example: 'visa' }),
            last4: z.string().meta({ example: '4242' }),
            expMonth: count,
            expYear: count,
            savedAt: timestamp,
          })
          .nullable()
          .meta({ id: 'SavedCard', description: 'The card recharges charge, as its owner recognises it (its number stays with Stripe); null until one is saved' }),
        lastAttempt: z
          .object({
            orderId: z.string().meta({ description: 'The top-up order of the recharge (GET /v1/billing/top-ups/{id})' }),
            status: z.enum(['pending', 'credited', 'expired', 'failed']),
            amountCents: cents,
            failureCode: z.string().nullable().meta({ description: "Stripe's reason when it failed, such as `card_declined` or `authentication_required`" }),
            failureMessage: z.string().nullable(),
            attemptedAt: timestamp,
            settledAt: timestamp.nullable().meta({ description: 'When it was credited or failed' }),
          })
          .nullable()
          .meta({ id: 'AutoRechargeAttempt', description: 'The newest recharge; null before the first' }),
      })
      .meta({
        id: 'AutoRecharge',
        description:
          'Tops the wallet up with the saved card when the effective balance falls under the threshold (after charges and after the daily tick): one try per credit, then none until a top-up, a new card or new settings',
      }),
    thisMonth: costTotalsSchema,
  })
  .meta({ id: 'Wallet', description: "The workspace's prepaid wallet (spec 2.11); money in integer USD cents" });

const topUpFields = 'id amountCents status checkoutUrl createdAt creditedAt';
const topUpSchema = z
  .object({
    id: z.string().meta({ example: 'top_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    amountCents: cents,
    status: z.enum(['pending', 'credited', 'expired', 'failed']).meta({
      description:
        '`pending` until paid; `credited` once the wallet got the money (exactly once); `expired` or `failed` when the checkout ended unpaid. ' +
        'An order whose checkout never started (`checkoutUrl` null: the request making it failed midway) is `failed` at most 25 hours after it was made, once no retry of the same amount can take it over (24 hours)',
    }),
    checkoutUrl: z.string().nullable().meta({ description: "Stripe's checkout page: send the payer there" }),
    createdAt: timestamp,
    creditedAt: timestamp.nullable(),
  })
  .meta({ id: 'TopUp' });

const usageSchema = z
  .object({
    balanceCents: cents,
    effectiveCents: cents,
    dailyBurnCents: cents,
    daysLeft: count.nullable(),
    activeKeywords: count.meta({ description: 'Running keywords' }),
    pausedKeywords: count.meta({ description: 'Keywords paused for balance' }),
    matchesToday: count.meta({ description: 'Mentions matched and charged today (UTC)' }),
    commentsToday: count.meta({ description: 'Thread comments delivered and charged today (UTC)' }),
    monthToDateCents: cents.meta({ description: 'Everything charged this calendar month' }),
  })
  .meta({ id: 'Usage' });

const usageBreakdownSchema = z
  .object({
    month: z.string().meta({ example: '2028-02' }),
    keywords: z.array(
      z
        .object({
          keywordId: z.string(),
          term: z.string().nullable().meta({ description: 'Null once the keyword is deleted; its charges stay' }),
          deleted: z.boolean(),
          ...costShape,
        })
        .meta({ id: 'UsageBreakdownRow', description: "One keyword's month; equal to its `stats.cost` for that month" }),
    ),
    totals: costTotalsSchema,
  })
  .meta({ id: 'UsageBreakdown' });

const stripeEventBody = z
  .looseObject({ id: z.string(), type: z.string(), data: z.looseObject({ object: z.looseObject({}) }) })
  .meta({ id: 'StripeEvent', description: 'A Stripe event as Stripe sends it; checked against `Stripe-Signature` over the raw body' });

const webhookReceiptSchema = z
  .object({
    received: z.literal(true),
    orderId: z.string().nullable().meta({ description: 'The top-up or auto-recharge the event was about; null for anything else (a saved card included)' }),
    status: topUpSchema.shape.status.nullable(),
  })
  .meta({ id: 'StripeWebhookReceipt' });

const notConfigured = { description: 'No payment provider is configured on this install (`billing_not_configured`)' };
const upstream = { description: 'The payment provider did not answer (`upstream_unavailable`, with `retryAfterSeconds`)' };

export const billingRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/billing/wallet',
    operationId: 'getWallet',
    summary: 'The wallet in full: balance, pending charges, burn, days left, keyword counts, costs, welcome credit, newest top-up, bounds, auto-recharge',
    tag: 'Billing',
    responses: { 200: { description: 'The wallet', schema: walletSchema }, 401: unauthorizedResponse },
    operation: `query Wallet { wallet { ${walletFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.wallet }),
  },
  {
    method: 'PUT',
    path: '/v1/billing/auto-recharge',
    operationId: 'updateAutoRecharge',
    summary:
      'Stores the auto-recharge settings (threshold and amount are required when enabled); a recharge that failed may then be tried again, at once when the wallet is under the threshold with a card saved; returns the wallet. One recharge per fall under the threshold, never a series: an amount that leaves the effective balance still under the threshold (a $20 amount under a $500 threshold) is charged once, and the next recharge waits until a credit (a top-up) brings the balance back to the threshold or above, or until the settings or the card change. The amount is integer cents, charged once per recharge (Stripe idempotency key).',
    tag: 'Billing',
    body: autoRechargeInput,
    responses: {
      200: { description: 'The wallet with the new settings', schema: walletSchema },
      400: { description: 'A field is unknown, of the wrong type or breaks its rule (`validation_error`, with `field`)' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
    },
    operation: `mutation UpdateAutoRecharge($input: AutoRechargeInput!) { updateAutoRecharge(input: $input) { ${walletFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 200, body: data.updateAutoRecharge }),
  },
  {
    method: 'POST',
    path: '/v1/billing/auto-recharge/card',
    operationId: 'startCardSetup',
    summary:
      "Starts saving a card for auto-recharge through Stripe Checkout in setup mode: send the user to `checkoutUrl`; the card is saved when Stripe's webhook reports the session completed (a new card replaces the old one)",
    tag: 'Billing',
    body: cardSetupInput,
    bodyOptional: true,
    responses: {
      201: {
        description: "Stripe's page for the card",
        schema: z
          .object({ checkoutUrl: z.string(), expiresAt: timestamp.nullable().meta({ description: 'When the page stops taking the card' }) })
          .meta({ id: 'CardSetup' }),
      },
      400: { description: 'A bad URL or an unknown field (`validation_error`, with `field`); checked before `billing_not_configured`' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      501: notConfigured,
      502: upstream,
    },
    operation: `mutation StartCardSetup($input: CardSetupInput!) { startCardSetup(input: $input) { checkoutUrl expiresAt } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: data.startCardSetup }),
  },
  {
    method: 'POST',
    path: '/v1/billing/top-ups',
    operationId: 'startTopUp',
    summary:
      'Starts a top-up of $20 to $5,000 through Stripe Checkout: send the payer to `checkoutUrl`; the wallet is credited once when Stripe reports the payment',
    tag: 'Billing',
    body: topUpInput,
    responses: {
      201: { description: 'The pending order with its checkout URL', schema: topUpSchema },
      400: { description: '`amountCents` outside 2,000 to 500,000, a bad URL or an unknown field (`validation_error`, with `field`); checked before `billing_not_configured`' },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      501: notConfigured,
      502: upstream,
    },
    operation: `mutation StartTopUp($input: StartTopUpInput!) { startTopUp(input: $input) { ${topUpFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: data.startTopUp }),
  },
  {
    method: 'GET',
    path: '/v1/billing/top-ups/{id}',
    operationId: 'getTopUp',
    summary: 'One top-up order',
    tag: 'Billing',
    responses: { 200: { description: 'The order', schema: topUpSchema }, 401: unauthorizedResponse, 404: notFoundResponse('top-up') },
    operation: `query TopUp($id: ID!) { topUp(id: $id) { ${topUpFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.topUp }),
  },
  {
    method: 'POST',
    path: '/v1/billing/top-ups/{id}/confirm',
    operationId: 'confirmTopUp',
    summary: 'Asks Stripe whether the order was paid, for when the payer is back before the webhook: credits it if so (once)',
    tag: 'Billing',
    responses: {
      200: { description: 'The order, credited', schema: topUpSchema },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: notFoundResponse('top-up'),
      409: { description: 'The order is not paid, or its checkout expired (`order_not_credited`)' },
      501: notConfigured,
      502: upstream,
    },
    operation: `mutation ConfirmTopUp($id: ID!) { confirmTopUp(id: $id) { ${topUpFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.confirmTopUp }),
  },
  {
    method: 'POST',
    path: '/v1/billing/stripe/webhook',
    operationId: 'receiveStripeWebhook',
    summary:
      "Stripe's webhook endpoint (register it for `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`, `payment_intent.succeeded`, `payment_intent.payment_failed` and `payment_intent.processing`). Needs no API key: the `Stripe-Signature` header is checked over the raw body with EARSHOT_STRIPE_WEBHOOK_SECRET; without that secret, a Checkout Session event is settled from the session as Stripe's API answers it, never from the body, and PaymentIntent events are ignored. A paid order (a top-up or an auto-recharge) is credited exactly once however often Stripe delivers it; a completed setup session saves the card for auto-recharge",
    tag: 'Billing',
    public: true,
    body: stripeEventBody,
    responses: {
      200: { description: 'Received; other events and other sessions are acknowledged and ignored', schema: webhookReceiptSchema },
      400: { description: 'The signature does not match or is older than five minutes, or, unsigned, the event names a session Stripe does not know (`invalid_signature`); or the body is not an event (`validation_error`)' },
      409: { description: "The paid amount is not the order's (`order_not_credited`); Stripe retries and shows the failure" },
      501: { description: 'Neither EARSHOT_STRIPE_WEBHOOK_SECRET nor a payment provider is set (`webhook_not_configured`)' },
      502: { description: 'Stripe did not answer when asked which card a setup session saved (`upstream_unavailable`); Stripe retries the event' },
    },
    operation: `mutation ReceiveStripeWebhook($payload: String!, $signature: String) {
      receiveStripeWebhook(payload: $payload, signature: $signature) { received orderId status }
    }`,
    variables: ({ rawBody, headers }) => ({ payload: rawBody ?? '', signature: headers.get('stripe-signature') }),
    result: (data) => ({ status: 200, body: data.receiveStripeWebhook }),
  },
  {
    method: 'GET',
    path: '/v1/usage',
    operationId: 'getUsage',
    summary: 'The short form: balance, burn, days left, keywords running and paused, matches today',
    tag: 'Billing',
    responses: { 200: { description: 'Usage', schema: usageSchema }, 401: unauthorizedResponse },
    operation: `query Usage { usage { balanceCents effectiveCents dailyBurnCents daysLeft activeKeywords pausedKeywords matchesToday commentsToday monthToDateCents } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: data.usage }),
  },
  {
    method: 'GET',
    path: '/v1/usage/breakdown',
    operationId: 'getUsageBreakdown',
    summary: "Per-keyword cost rows of a calendar month (UTC); each row equals that keyword's `stats.cost` for the month",
    tag: 'Billing',
    query: z.object({
      month: usageBreakdownInput.shape.month.meta({ description: 'The month as YYYY-MM; default this month', example: '2028-02' }),
    }),
    responses: {
      200: { description: 'The breakdown', schema: usageBreakdownSchema },
      400: { description: 'A month that is not YYYY-MM or not from 0001-01 to 9999-11, or an unknown query parameter (`validation_error`, with `field`)' },
      401: unauthorizedResponse,
    },
    operation: `query UsageBreakdown($month: String) {
      usageBreakdown(month: $month) { month keywords { keywordId term deleted ${costFields} } totals { ${costFields} } }
    }`,
    variables: ({ query }) => ({ month: query.month ?? null }),
    result: (data) => ({ status: 200, body: data.usageBreakdown }),
  },
];
