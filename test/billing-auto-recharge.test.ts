import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import { recordDueAutoRecharges } from '../subgraphs/billing/auto-recharge-due.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { lockWallet } from '../subgraphs/billing/wallet-store.ts';
import { addKeywords, chargeMentions, eventsOf, leaveInWallet, wallet } from './billing-seed.ts';
import { type FakeCard, type FakeStripe, signedStripeEvent, startFakeStripe, stripeEnv } from './fake-upstreams/stripe.ts';
import { eventually, recordingLogger, startTestEarshot, type TestEarshot } from './harness.ts';

const webhookSecret = 'whsec_test_auto_recharge_5Qm2pX';
const clock = manualClock(new Date('2028-03-10T12:00:00.000Z'));
const at = '2028-03-10T12:00:00.000Z';
const logged = recordingLogger();
let stripe: FakeStripe;
let earshot: TestEarshot;

beforeAll(async () => {
  stripe = await startFakeStripe();
  earshot = await startTestEarshot(
    {
      env: { ...stripeEnv(stripe, webhookSecret), EARSHOT_PUBLIC_URL: 'https://app.example' },
    },
    { clock, log: logged.log },
  );
});
afterAll(async () => {
  await earshot?.stop();
  await stripe?.close();
});

const deliver = (type: string, object: Record<string, any>) => {
  const event = signedStripeEvent(webhookSecret, type, object, clock.now());
  return earshot.rest('POST', '/v1/billing/stripe/webhook', { body: event.body, headers: { 'stripe-signature': event.signature } });
};

/** $5.00: a wallet recharges once its effective balance falls under it. */
const threshold = { enabled: true, thresholdCents: 500, amountCents: 2000 };
/** What a charge of one mention (0.8 cents) leaves in the wallet, counted in fifteenths of a cent. */
const mention = 12;

async function savedCard(apiKey: string, card: FakeCard = 'visa') {
  const setup = await earshot.rest('POST', '/v1/billing/auto-recharge/card', { key: apiKey, body: {} });
  expect(setup.status).toBe(201);
  const session = [...stripe.sessions.values()].find((candidate) => candidate.url === setup.body.checkoutUrl)!;
  expect((await deliver('checkout.session.completed', stripe.saveCard(session.id, card))).body).toEqual({ received: true, orderId: null, status: null });
  return session;
}

/** A workspace with auto-recharge on at $5.00 and a card saved, its wallet at `fifteenths`, and a keyword to charge. */
async function rechargingWorkspace(card: FakeCard = 'visa', fifteenths = 500 * 15 + mention) {
  const { workspace, apiKey } = await earshot.createWorkspace();
  expect((await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: threshold })).status).toBe(200);
  const session = await savedCard(apiKey, card);
  const [keyword] = await addKeywords(earshot.sql, workspace.id, 1);
  // Today's keyword day charged: nothing is pending, so the effective balance is the balance left here.
  await chargeDailyKeywordFees(earshot.sql, '2028-03-10');
  await leaveInWallet(earshot.sql, workspace.id, fifteenths);
  return { workspaceId: workspace.id, apiKey, keyword, customer: session.customer as string };
}

const paymentIntentRequests = (customer: string) =>
  stripe.requests.filter((request) => request.path === '/v1/payment_intents' && new URLSearchParams(request.body).get('customer') === customer);

const autoRecharges = (workspaceId: string) =>
  earshot.sql<{ id: string; status: string; runs: number; paymentIntentId: string | null }[]>`
    select id, status, runs, payment_intent_id from top_up_orders where workspace_id = ${workspaceId} and source = 'auto_recharge' order by created_at, id`;

const settled = (workspaceId: string, count = 1) =>
  eventually(
    () => autoRecharges(workspaceId),
    (orders) => orders.length >= count && orders.every((order) => order.status !== 'pending'),
  );

const walletView = async (apiKey: string) => (await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body;

/** The ledger's credits of the workspace's top-ups and auto-recharges, in cents. */
const topUpCredits = async (workspaceId: string) =>
  (await earshot.sql`select amount_fifteenths::int as amount from ledger_entries where workspace_id = ${workspaceId} and kind = 'top_up'`).map(
    (row) => row.amount / 15,
  );

describe('saving a card (Stripe Checkout in setup mode)', () => {
  it("answers the Checkout URL, and the completed session's webhook stores Stripe's customer and card, never the number", async () => {
    const { workspace, apiKey } = await earshot.createWorkspace();
    const settings = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: threshold });
    expect(settings.body.autoRecharge).toEqual({ ...threshold, state: 'needs_card', card: null, lastAttempt: null });

    const setup = await earshot.rest('POST', '/v1/billing/auto-recharge/card', { key: apiKey, body: {} });
    expect(setup).toMatchObject({
      status: 201,
      body: { checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/), expiresAt: expect.any(String) },
    });
    const [customerRequest, sessionRequest] = stripe.requests.slice(-2);
    expect(customerRequest).toMatchObject({ method: 'POST', path: '/v1/customers', headers: { 'idempotency-key': `customer:${workspace.id}` } });
    expect(Object.fromEntries(new URLSearchParams(customerRequest.body))).toEqual({
      description: `Earshot workspace ${workspace.id}`,
      'metadata[workspace_id]': workspace.id,
    });
    const customer = [...stripe.customers.values()].find((candidate) => candidate.metadata.workspace_id === workspace.id)!;
    expect(sessionRequest).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', headers: { authorization: `Bearer ${stripe.secretKey}` } });
    expect(Object.fromEntries(new URLSearchParams(sessionRequest.body))).toEqual({
      mode: 'setup',
      customer: customer.id,
      currency: 'usd',
      'payment_method_types[0]': 'card',
      success_url: 'https://app.example/?card_setup=saved',
      cancel_url: 'https://app.example/?card_setup=cancelled',
      client_reference_id: workspace.id,
      'metadata[workspace_id]': workspace.id,
      'setup_intent_data[metadata][workspace_id]': workspace.id,
    });
    expect((await walletView(apiKey)).autoRecharge.card).toBeNull();

    const session = [...stripe.sessions.values()].find((candidate) => candidate.url === setup.body.checkoutUrl)!;
    const completed = stripe.saveCard(session.id);
    for (let delivery = 0; delivery < 2; delivery++) {
      expect(await deliver('checkout.session.completed', completed)).toMatchObject({ status: 200, body: { received: true, orderId: null, status: null } });
    }
    expect((await walletView(apiKey)).autoRecharge).toEqual({
      ...threshold,
      state: 'ready',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, savedAt: at },
      lastAttempt: null,
    });
    const [stored] = await earshot.sql`
      select stripe_customer_id, stripe_payment_method_id, card_brand, card_last4, card_exp_month, card_exp_year, auto_recharge_revision
      from wallets where workspace_id = ${workspace.id}`;
    expect(stored).toEqual({
      stripeCustomerId: customer.id,
      stripePaymentMethodId: expect.stringMatching(/^pm_/),
      cardBrand: 'visa',
      cardLast4: '4242',
      cardExpMonth: 12,
      cardExpYear: 2034,
      // The settings, then the card; the second delivery of the same card is no new revision.
      autoRechargeRevision: 2,
    });
    // Above the threshold ($5.80 of welcome credit): nothing to recharge.
    expect(await autoRecharges(workspace.id)).toEqual([]);

    // A second setup reuses the workspace's customer; every field being optional, the body may be left out.
    expect((await earshot.rest('POST', '/v1/billing/auto-recharge/card', { key: apiKey })).status).toBe(201);
    expect([...stripe.customers.values()].filter((candidate) => candidate.metadata.workspace_id === workspace.id)).toHaveLength(1);
  });

  it("ignores a setup session of another customer, and keeps the saved card", async () => {
    const { workspace, apiKey } = await earshot.createWorkspace();
    const session = await savedCard(apiKey);
    const other = await earshot.createWorkspace();
    const foreign = await earshot.rest('POST', '/v1/billing/auto-recharge/card', { key: other.apiKey, body: {} });
    const foreignSession = [...stripe.sessions.values()].find((candidate) => candidate.url === foreign.body.checkoutUrl)!;
    const forged = { ...stripe.saveCard(foreignSession.id, 'declined'), client_reference_id: workspace.id };
    expect((await deliver('checkout.session.completed', forged)).body).toEqual({ received: true, orderId: null, status: null });
    expect((await walletView(apiKey)).autoRecharge.card).toMatchObject({ last4: '4242' });
    expect(session.customer).not.toBe(foreignSession.customer);
  });

  it('refuses a bad return URL with 400, and answers 501 billing_not_configured without a payment provider', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const bad = await earshot.rest('POST', '/v1/billing/auto-recharge/card', { key: apiKey, body: { successUrl: 'ftp://files.example' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'successUrl' });
    const bare = await startTestEarshot({}, { databaseUrl: earshot.databaseUrl, clock });
    try {
      const response = await bare.rest('POST', '/v1/billing/auto-recharge/card', { key: apiKey, body: {} });
      expect(response.status).toBe(501);
      expect(response.body.error).toMatchObject({ code: 'billing_not_configured' });
    } finally {
      await bare.stop();
    }
  });
});

describe('auto-recharge', () => {
  it('charges the saved card off-session once the effective balance falls under the threshold, and credits it once', async () => {
    const { workspaceId, apiKey, keyword, customer } = await rechargingWorkspace();
    // Down to exactly $5.00: not under the threshold yet.
    await chargeMentions(earshot.sql, keyword, 1, clock.now());
    expect(await autoRecharges(workspaceId)).toEqual([]);
    await chargeMentions(earshot.sql, keyword, 1, clock.now());
    const [order] = await settled(workspaceId);
    expect(order).toMatchObject({ status: 'credited', runs: 0, paymentIntentId: expect.stringMatching(/^pi_/) });

    const [request] = paymentIntentRequests(customer);
    expect(request.headers['idempotency-key']).toBe(`auto_recharge:${workspaceId}:1.2`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      amount: '2000',
      currency: 'usd',
      customer,
      payment_method: expect.stringMatching(/^pm_/),
      off_session: 'true',
      confirm: 'true',
      description: 'Earshot wallet auto-recharge',
      'metadata[order_id]': order.id,
      'metadata[workspace_id]': workspaceId,
    });

    // 500.8 cents less two mentions, plus $20: 2499.2 cents, shown rounded once.
    expect((await wallet(earshot.sql, workspaceId)).balanceFifteenths).toBe(500 * 15 - mention + 2000 * 15);
    expect(await walletView(apiKey)).toMatchObject({
      status: 'funded',
      balanceCents: 2499,
      pendingCents: 0,
      effectiveCents: 2499,
      lastCreditCents: 2000,
      lowBalanceCents: 400,
      onWelcomeCredit: false,
      lastTopUp: { amountCents: 2000, creditedAt: at, source: 'stripe', orderId: order.id },
      autoRecharge: {
        ...threshold,
        state: 'ready',
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, savedAt: at },
        lastAttempt: { orderId: order.id, status: 'credited', amountCents: 2000, failureCode: null, failureMessage: null, attemptedAt: at, settledAt: at },
      },
    });
    expect(await earshot.rest('GET', `/v1/billing/top-ups/${order.id}`, { key: apiKey })).toMatchObject({
      status: 200,
      body: { id: order.id, amountCents: 2000, status: 'credited', checkoutUrl: null, createdAt: at, creditedAt: at },
    });
    expect(await topUpCredits(workspaceId)).toEqual([2000]);
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);

    // Above the threshold again: more charges make no new recharge.
    await chargeMentions(earshot.sql, keyword, 3, clock.now());
    expect(await autoRecharges(workspaceId)).toHaveLength(1);
    expect(paymentIntentRequests(customer)).toHaveLength(1);
  });

  it("credits once when Stripe's webhook arrives before its answer, and when it is delivered again after", async () => {
    const { workspaceId, apiKey, keyword, customer } = await rechargingWorkspace();
    const receipts: unknown[] = [];
    stripe.beforeAnswer = async (intent) => {
      receipts.push((await deliver('payment_intent.succeeded', intent)).body);
    };
    try {
      await chargeMentions(earshot.sql, keyword, 2, clock.now());
      const [order] = await settled(workspaceId);
      expect(receipts).toEqual([{ received: true, orderId: order.id, status: 'credited' }]);
      // The answer came after the webhook had credited: it found the order credited.
      const answered = await eventually(
        async () => logged.lines.filter((line) => line.message === 'auto-recharge answered' && line.orderId === order.id),
        (lines) => lines.length > 0,
      );
      expect(answered).toEqual([expect.objectContaining({ status: 'credited', paymentIntentId: order.paymentIntentId })]);
      const intent = stripe.paymentIntents.get(order.paymentIntentId!)!;
      expect((await deliver('payment_intent.succeeded', intent)).body).toEqual({ received: true, orderId: order.id, status: 'credited' });
      expect(paymentIntentRequests(customer)).toHaveLength(1);
      expect(await topUpCredits(workspaceId)).toEqual([2000]);
      expect((await walletView(apiKey)).balanceCents).toBe(2499);
      expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
    } finally {
      stripe.beforeAnswer = null;
    }
  });

  it("credits Stripe's webhook while a charge holds the same wallet, without a deadlock", async () => {
    const { workspaceId, keyword } = await rechargingWorkspace();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let charged: Record<string, any> | undefined;
    stripe.beforeAnswer = async (intent) => {
      charged = intent;
      await held;
    };
    try {
      await chargeMentions(earshot.sql, keyword, 2, clock.now());
      await eventually(async () => charged, (intent) => intent !== undefined);
      // A charge locks the wallet and, the wallet still under its threshold, records a recharge while
      // Stripe's webhook credits the one in flight: the webhook waits for the wallet, the record finds
      // the recharge in flight and records nothing.
      const { webhook } = (await earshot.sql.begin(async (tx) => {
        const locked = (await lockWallet(tx, workspaceId))!;
        const webhook = deliver('payment_intent.succeeded', charged!);
        await eventually(
          async () => (await earshot.sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0].waiting,
          (waiting) => waiting > 0,
        );
        await recordDueAutoRecharges(tx, [{ wallet: locked, effectiveFifteenths: 0 }], clock.now());
        return { webhook };
      })) as { webhook: ReturnType<typeof deliver> };
      const [order] = await autoRecharges(workspaceId);
      expect(await webhook).toMatchObject({ status: 200, body: { received: true, orderId: order.id, status: 'credited' } });
    } finally {
      release();
      stripe.beforeAnswer = null;
    }
    await eventually(
      async () => logged.lines.filter((line) => line.message === 'auto-recharge answered' && line.paymentIntentId === charged!.id),
      (lines) => lines.length > 0,
    );
    expect((await autoRecharges(workspaceId)).map((order) => order.status)).toEqual(['credited']);
    expect(await topUpCredits(workspaceId)).toEqual([2000]);
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
  });

  it("reruns a recharge whose answer was lost with the same idempotency key: one payment, credited once", async () => {
    const { workspaceId, apiKey, keyword, customer } = await rechargingWorkspace();
    // Stripe charges the card, but the answer never arrives, on every try of the first run.
    stripe.failNext('lost-answer', 3);
    await chargeMentions(earshot.sql, keyword, 2, clock.now());
    const [unanswered] = await eventually(
      () => autoRecharges(workspaceId),
      (orders) => orders[0]?.runs === 1,
    );
    expect(unanswered).toMatchObject({ status: 'pending', runs: 1, paymentIntentId: null });
    expect((await walletView(apiKey)).autoRecharge).toMatchObject({ state: 'charging', lastAttempt: { status: 'pending', settledAt: null } });

    // The run's lease ends: a worker takes the recharge again.
    clock.advance(61_000);
    try {
      const [order] = await settled(workspaceId);
      expect(order).toMatchObject({ id: unanswered.id, status: 'credited', runs: 1 });
      const requests = paymentIntentRequests(customer);
      expect(requests).toHaveLength(4);
      expect(new Set(requests.map((request) => request.headers['idempotency-key']))).toEqual(new Set([`auto_recharge:${workspaceId}:1.2`]));
      expect(new Set(requests.map((request) => request.body)).size).toBe(1);
      expect([...stripe.paymentIntents.values()].filter((intent) => intent.customer === customer)).toHaveLength(1);
      expect(await topUpCredits(workspaceId)).toEqual([2000]);
      expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
    } finally {
      clock.set(new Date(at));
    }
  });

  it.each([
    ['declined', 'card_declined', 'Your card was declined.'],
    ['authentication_required', 'authentication_required', 'Your card was declined. This transaction requires authentication.'],
  ] as const)('records a %s card, shows it, tries nothing more until the user saves a new card', async (card, code, message) => {
    const { workspaceId, apiKey, keyword, customer } = await rechargingWorkspace(card);
    await chargeMentions(earshot.sql, keyword, 2, clock.now());
    const [failed] = await settled(workspaceId);
    expect(failed).toMatchObject({ status: 'failed', paymentIntentId: expect.stringMatching(/^pi_/) });
    const view = await walletView(apiKey);
    expect(view).toMatchObject({ balanceCents: 499, lastTopUp: null, onWelcomeCredit: true });
    expect(view.autoRecharge).toEqual({
      ...threshold,
      state: 'failed',
      card: { brand: 'visa', last4: card === 'declined' ? '0002' : '3184', expMonth: 12, expYear: 2034, savedAt: at },
      lastAttempt: { orderId: failed.id, status: 'failed', amountCents: 2000, failureCode: code, failureMessage: message, attemptedAt: at, settledAt: at },
    });
    expect(await earshot.rest('GET', `/v1/billing/top-ups/${failed.id}`, { key: apiKey })).toMatchObject({ body: { status: 'failed', creditedAt: null } });
    // Stripe's webhook about the same failure changes nothing.
    expect((await deliver('payment_intent.payment_failed', stripe.paymentIntents.get(failed.paymentIntentId!)!)).body).toEqual({
      received: true,
      orderId: failed.id,
      status: 'failed',
    });

    // More charges and the next daily tick, all under the threshold: no second try in this credit epoch.
    await chargeMentions(earshot.sql, keyword, 3, clock.now());
    await chargeDailyKeywordFees(earshot.sql, '2028-03-11');
    expect(await autoRecharges(workspaceId)).toHaveLength(1);
    expect(paymentIntentRequests(customer)).toHaveLength(1);

    // The user saves a card that works: the wallet, still under the threshold, recharges at once.
    await savedCard(apiKey);
    const [, credited] = await settled(workspaceId, 2);
    expect(credited.status).toBe('credited');
    expect(paymentIntentRequests(customer).map((request) => request.headers['idempotency-key'])).toEqual([
      `auto_recharge:${workspaceId}:1.2`,
      `auto_recharge:${workspaceId}:1.3`,
    ]);
    expect((await walletView(apiKey)).autoRecharge).toMatchObject({ state: 'ready', lastAttempt: { orderId: credited.id, status: 'credited', failureCode: null } });
    expect(await topUpCredits(workspaceId)).toEqual([2000]);
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
  });

  it('recharges a wallet the daily tick leaves under the threshold', async () => {
    // $5.10: the day of one keyword (16⅔ cents) takes it to $4.93.
    const { workspaceId, apiKey, customer } = await rechargingWorkspace('visa', 510 * 15);
    await chargeDailyKeywordFees(earshot.sql, '2028-03-11');
    const [order] = await settled(workspaceId);
    expect(order.status).toBe('credited');
    expect(paymentIntentRequests(customer)).toHaveLength(1);
    expect((await wallet(earshot.sql, workspaceId)).balanceFifteenths).toBe(510 * 15 - 250 + 2000 * 15);
    expect(await walletView(apiKey)).toMatchObject({ balanceCents: 2493, lastTopUp: { amountCents: 2000, source: 'stripe', orderId: order.id } });
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
  });

  it('recharges a wallet the daily tick paused for balance, and the credit resumes its keywords', async () => {
    // 10 cents cannot pay the keyword's next day: the tick pauses it.
    const { workspaceId, apiKey, keyword } = await rechargingWorkspace('visa', 10 * 15);
    await chargeDailyKeywordFees(earshot.sql, '2028-03-11');
    const [order] = await settled(workspaceId);
    expect(order.status).toBe('credited');
    expect(await walletView(apiKey)).toMatchObject({ status: 'funded', balanceCents: 2010, activeKeywords: 1, pausedKeywords: 0 });
    const keywordView = await earshot.rest('GET', `/v1/keywords/${keyword.id}`, { key: apiKey });
    expect(keywordView.body).toMatchObject({ muted: false, pausedForBalance: false });
    expect((await eventsOf(earshot.sql, workspaceId)).map((event) => event.name)).toEqual([
      'keyword.paused_for_balance',
      'wallet.paused',
      'keyword.resumed',
      'wallet.resumed',
    ]);
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
  });

  // A recharge's credit opened a new try: with the threshold far above the amount, every charge after it recharged again.
  it('recharges once per fall under a threshold the amount cannot reach, and again only after a credit lifts the balance to it', async () => {
    const { workspaceId, apiKey, keyword, customer } = await rechargingWorkspace();
    const farAbove = { enabled: true, thresholdCents: 50_000, amountCents: 2000 };
    expect((await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: farAbove })).status).toBe(200);
    expect((await settled(workspaceId)).map((order) => order.status)).toEqual(['credited']);
    expect(await walletView(apiKey)).toMatchObject({ balanceCents: 2501, autoRecharge: { ...farAbove, state: 'ready' } });

    // Still $475 under the threshold: charge after charge and the next day's tick recharge nothing.
    for (let charge = 0; charge < 3; charge++) await chargeMentions(earshot.sql, keyword, 1, clock.now());
    await chargeDailyKeywordFees(earshot.sql, '2028-03-11');
    expect(await autoRecharges(workspaceId)).toHaveLength(1);
    expect(paymentIntentRequests(customer)).toHaveLength(1);

    // A credit that brings the balance to the threshold ends the wait; the next fall under it recharges once.
    const left = (await wallet(earshot.sql, workspaceId)).balanceFifteenths;
    await creditWalletByOperator(earshot.sql, { workspaceId, cents: Math.ceil((farAbove.thresholdCents * 15 - left) / 15), at: clock.now() });
    expect(await autoRecharges(workspaceId)).toHaveLength(1);
    await chargeMentions(earshot.sql, keyword, 2, clock.now());
    expect((await settled(workspaceId, 2)).map((order) => order.status)).toEqual(['credited', 'credited']);
    await chargeMentions(earshot.sql, keyword, 2, clock.now());
    expect(await autoRecharges(workspaceId)).toHaveLength(2);
    expect(paymentIntentRequests(customer)).toHaveLength(2);
    expect(await topUpCredits(workspaceId)).toEqual([2000, 2000]);
    expect(await ledgerBalanceMismatches(earshot.sql)).toEqual([]);
  });

  it('recharges at once when the settings are saved under the threshold, and never without a card', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace();
    await leaveInWallet(earshot.sql, workspace.id, 100 * 15);
    expect((await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: threshold })).body.autoRecharge.state).toBe('needs_card');
    expect(await autoRecharges(workspace.id)).toEqual([]);
    const session = await savedCard(apiKey);
    expect((await settled(workspace.id)).map((order) => order.status)).toEqual(['credited']);
    expect(paymentIntentRequests(session.customer)).toHaveLength(1);

    const off = await earshot.rest('PUT', '/v1/billing/auto-recharge', { key: apiKey, body: { enabled: false } });
    expect(off.body.autoRecharge).toMatchObject({ enabled: false, thresholdCents: null, amountCents: null, state: 'off' });
  });
});
