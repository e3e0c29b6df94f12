import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { createCheckoutSession, stripeSettings } from '../subgraphs/billing/stripe-checkout.ts';
import { insertTopUpOrder } from '../subgraphs/billing/top-up-order-store.ts';
import { jobDefinitions } from '../jobs/index.ts';
import { orphanedTopUpsQueue } from '../jobs/orphaned-top-ups/index.ts';
import { createLogger } from '../runtime/logger.ts';
import { addKeywords, eventsOf, leaveInWallet, wallet } from './billing-seed.ts';
import { type FakeStripe, signedStripeEvent, startFakeStripe, stripeEnv } from './fake-upstreams/stripe.ts';
import { startFakeServer } from './fake-upstreams/fake-server.ts';
import { patiently, startTestEarshot, testSecrets, type TestEarshot, waitersOnLocks } from './harness.ts';

const webhookSecret = 'whsec_test_4eC39HqLyjWDarjtT1zdp7dc';
const clock = manualClock(new Date('2028-03-10T12:00:00.000Z'));
let stripe: FakeStripe;
let earshot: TestEarshot;

beforeAll(async () => {
  stripe = await startFakeStripe();
  earshot = await startTestEarshot(
    {
      env: { ...stripeEnv(stripe, webhookSecret), EARSHOT_PUBLIC_URL: 'https://app.example' },
    },
    { clock },
  );
});
afterAll(async () => {
  await earshot?.stop();
  await stripe?.close();
});

async function startTopUp(key: string, amountCents: number) {
  const response = await earshot.rest('POST', '/v1/billing/top-ups', { key, body: { amountCents } });
  expect(response.status).toBe(201);
  return { order: response.body, session: [...stripe.sessions.values()].find((session) => session.client_reference_id === response.body.id)! };
}

const deliver = (event: { body: string; signature: string }) =>
  earshot.rest('POST', '/v1/billing/stripe/webhook', { body: event.body, headers: { 'stripe-signature': event.signature } });

describe('POST /v1/billing/top-ups', () => {
  it('creates a Stripe Checkout Session for the order and answers its checkout URL', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const response = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2500 } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^top_[0-9a-z]{26}$/),
      amountCents: 2500,
      status: 'pending',
      checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
      createdAt: '2028-03-10T12:00:00.000Z',
      creditedAt: null,
    });
    const request = stripe.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(request.headers).toMatchObject({ authorization: `Bearer ${stripe.secretKey}`, 'idempotency-key': response.body.id });
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Earshot wallet top-up',
      'line_items[0][quantity]': '1',
      success_url: `https://app.example/?top_up=${response.body.id}&status=paid`,
      cancel_url: `https://app.example/?top_up=${response.body.id}&status=cancelled`,
      client_reference_id: response.body.id,
      'metadata[order_id]': response.body.id,
      'metadata[workspace_id]': workspace.id,
    });
    expect(await earshot.rest('GET', `/v1/billing/top-ups/${response.body.id}`, { key: apiKey })).toMatchObject({ status: 200, body: response.body });
  });

  it.each([
    [1999, /^amountCents: must be at least 2000 \(\$20\)$/],
    [500_001, /^amountCents: must be at most 500000 \(\$5,000\)$/],
    [2000.5, /^amountCents: must be whole cents$/],
  ])('refuses %s cents with 400 validation_error', async (amountCents, message) => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'amountCents', message: expect.stringMatching(message) });
  });

  it('refuses a return URL that is not http or https, naming it', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const response = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000, successUrl: 'javascript:alert(1)' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field: 'successUrl' });
  });

  it('answers 502 upstream_unavailable when Stripe fails, and marks the order failed', async () => {
    const { apiKey } = await earshot.createWorkspace();
    stripe.failNext('server-error', 3);
    const response = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000 } });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'upstream_unavailable', retryAfterSeconds: 30 });
    const [order] = await earshot.sql`select status from top_up_orders order by created_at desc, id desc limit 1`;
    expect(order.status).toBe('failed');
  });

  it('answers 502 upstream_unavailable, within the request deadline, when Stripe does not answer', async () => {
    const { apiKey } = await earshot.createWorkspace();
    stripe.failNext('slow', 2);
    const asked = Date.now();
    const response = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000 } });
    expect(Date.now() - asked).toBeLessThan(4_500);
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'upstream_unavailable' });
  }, 15_000);

  it('takes over the order of a request whose process died after Stripe made its session, with that session and no second', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    // What the dead process left: the order saved, its session made at Stripe, the session never saved on the order.
    const orphan = await insertTopUpOrder(earshot.sql, { workspaceId: workspace.id, amountCents: 4000, at: clock.now(), leaseUntil: new Date(clock.now().getTime() + 10_000) });
    const back = (outcome: string) => `https://app.example/?top_up=${orphan.id}&status=${outcome}`;
    const settings = stripeSettings({ ...stripeEnv(stripe, webhookSecret), EARSHOT_PUBLIC_URL: 'https://app.example' })!;
    const made = await createCheckoutSession(settings, { id: orphan.id, workspaceId: workspace.id, amountCents: 4000, successUrl: back('paid'), cancelUrl: back('cancelled') });

    const started = clock.now();
    try {
      clock.advance(30_000);
      const retry = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 4000 } });
      expect(retry.status).toBe(201);
      expect(retry.body).toMatchObject({ id: orphan.id, status: 'pending', checkoutUrl: made.url });
      expect([...stripe.sessions.values()].filter((session) => session.client_reference_id === orphan.id)).toHaveLength(1);
      // A later top-up of the same amount is a new order: the taken-over one has its checkout now.
      const next = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 4000 } });
      expect(next.body.id).not.toBe(orphan.id);
    } finally {
      clock.set(started);
    }
  });
});

describe('a top-up whose process died before its checkout session was saved', () => {
  const hour = 3_600_000;
  const sweep = () =>
    orphanedTopUpsQueue.handle([{}], { sql: earshot.sql, clock, log: createLogger('silent'), config: { pollIntervalSeconds: 300, env: {} }, secrets: testSecrets, send: async () => null });
  const statusOf = async (key: string, id: string) => (await earshot.rest('GET', `/v1/billing/top-ups/${id}`, { key })).body.status;

  // Such an order stayed pending for ever unless the same workspace retried the same amount within 24 hours.
  it('fails once no retry may take it over (24 hours), leaving younger ones and started ones pending', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const started = clock.now();
    const orphanAt = (at: Date) => insertTopUpOrder(earshot.sql, { workspaceId: workspace.id, amountCents: 3000, at, leaseUntil: new Date(at.getTime() + 10_000) });
    try {
      const old = await orphanAt(started);
      const young = await orphanAt(new Date(started.getTime() + 2 * hour));
      const { order: paying } = await startTopUp(apiKey, 3000);
      clock.set(new Date(started.getTime() + 24 * hour - 1));
      await sweep();
      expect(await statusOf(apiKey, old.id)).toBe('pending');
      clock.set(new Date(started.getTime() + 25 * hour));
      await sweep();
      expect({ old: await statusOf(apiKey, old.id), young: await statusOf(apiKey, young.id), paying: await statusOf(apiKey, paying.id) }).toEqual({
        old: 'failed',
        young: 'pending',
        paying: 'pending',
      });
      // What is failed stays failed: a retry of the amount takes over the younger order, never the failed one.
      const retry = await earshot.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 3000 } });
      expect(retry.body).toMatchObject({ id: young.id, status: 'pending' });
      expect(await statusOf(apiKey, old.id)).toBe('failed');
    } finally {
      clock.set(started);
    }
  });

  it('is looked for every hour by a pg-boss queue', () => {
    expect(jobDefinitions).toContain(orphanedTopUpsQueue);
    expect(orphanedTopUpsQueue.schedule).toEqual({ cron: '0 * * * *', payload: {} });
  });
});

describe("Stripe's webhook", () => {
  it('credits a paid order exactly once, however often Stripe delivers it', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 2500);
    const event = signedStripeEvent(webhookSecret, 'checkout.session.completed', stripe.pay(session.id), clock.now());
    for (let delivery = 0; delivery < 3; delivery++) {
      expect(await deliver(event)).toMatchObject({ status: 200, body: { received: true, orderId: order.id, status: 'credited' } });
    }
    const again = signedStripeEvent(webhookSecret, 'checkout.session.async_payment_succeeded', session, clock.now());
    expect((await deliver(again)).body).toEqual({ received: true, orderId: order.id, status: 'credited' });

    const credits = await earshot.sql`select amount_fifteenths::int as amount from ledger_entries where workspace_id = ${workspace.id} and kind = 'top_up'`;
    expect(credits.map((row) => row.amount)).toEqual([2500 * 15]);
    const walletView = await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey });
    expect(walletView.body).toMatchObject({
      balanceCents: 580 + 2500,
      onWelcomeCredit: false,
      welcomeCredit: { cents: 580, active: false, capMentions: 200, capPer: 'month' },
      lastCreditCents: 2500,
      lastTopUp: { amountCents: 2500, creditedAt: '2028-03-10T12:00:00.000Z', source: 'stripe', orderId: order.id },
    });
    expect(await earshot.rest('GET', `/v1/billing/top-ups/${order.id}`, { key: apiKey })).toMatchObject({
      body: { status: 'credited', creditedAt: '2028-03-10T12:00:00.000Z' },
    });
  });

  it('does not credit a completed checkout whose payment is still pending', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 3000);
    const event = signedStripeEvent(webhookSecret, 'checkout.session.completed', { ...session, status: 'complete' }, clock.now());
    expect((await deliver(event)).body).toEqual({ received: true, orderId: order.id, status: 'pending' });
    expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body.balanceCents).toBe(580);
  });

  it('refuses a wrong signature, a tampered body and a stale timestamp with 400 invalid_signature, crediting nothing', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const { session } = await startTopUp(apiKey, 2000);
    const paid = stripe.pay(session.id);
    const forged = signedStripeEvent('whsec_someone_else', 'checkout.session.completed', paid, clock.now());
    const genuine = signedStripeEvent(webhookSecret, 'checkout.session.completed', paid, clock.now());
    const tampered = { body: genuine.body.replace('"amount_total": 2000', '"amount_total": 200000'), signature: genuine.signature };
    const stale = signedStripeEvent(webhookSecret, 'checkout.session.completed', paid, new Date(clock.now().getTime() - 10 * 60_000));
    for (const event of [forged, tampered, stale, { body: genuine.body, signature: '' }]) {
      const response = await deliver(event);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_signature');
    }
    expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body.balanceCents).toBe(580);
  });

  it("answers 409 order_not_credited when the paid amount is not the order's", async () => {
    const { apiKey } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 2000);
    const event = signedStripeEvent(webhookSecret, 'checkout.session.completed', { ...stripe.pay(session.id), amount_total: 1000 }, clock.now());
    const response = await deliver(event);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('order_not_credited');
    expect((await earshot.rest('GET', `/v1/billing/top-ups/${order.id}`, { key: apiKey })).body.status).toBe('pending');
  });

  it('settles an expired checkout as expired, and acknowledges events about other sessions', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 2000);
    expect((await deliver(signedStripeEvent(webhookSecret, 'checkout.session.expired', stripe.expire(session.id), clock.now()))).body).toEqual({
      received: true,
      orderId: order.id,
      status: 'expired',
    });
    const foreign = { ...session, id: 'cs_test_other', client_reference_id: 'someone_elses_order' };
    expect((await deliver(signedStripeEvent(webhookSecret, 'checkout.session.completed', foreign, clock.now()))).body).toEqual({
      received: true,
      orderId: null,
      status: null,
    });
    expect((await deliver(signedStripeEvent(webhookSecret, 'customer.created', { id: 'cus_1' }, clock.now()))).body).toEqual({
      received: true,
      orderId: null,
      status: null,
    });
  });

  it('resumes the keywords paused for balance when the credit covers a day of every keyword, but not those paused for noise', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const [first, second, noisy] = await addKeywords(earshot.sql, workspace.id, 3);
    await earshot.sql`update keywords set muted = true, paused_for_balance = true where id in (${first.id}, ${second.id})`;
    await earshot.sql`update keywords set muted = true, paused_for_balance = true, paused_for_noise = true where id = ${noisy.id}`;
    await chargeDailyKeywordFees(earshot.sql, '2028-03-10');
    await leaveInWallet(earshot.sql, workspace.id, 0);
    const { session } = await startTopUp(apiKey, 2000);
    await deliver(signedStripeEvent(webhookSecret, 'checkout.session.completed', stripe.pay(session.id), clock.now()));

    const keywords = (await earshot.rest('GET', '/v1/keywords', { key: apiKey })).body.data;
    expect(keywords.map((k: any) => [k.id, k.muted, k.pausedForBalance, k.pausedForNoise])).toEqual([
      [first.id, false, false, false],
      [second.id, false, false, false],
      [noisy.id, true, false, true],
    ]);
    const at = '2028-03-10T12:00:00.000Z';
    const walletAfter = { balanceCents: 2000, effectiveCents: 2000, nextDayCents: 33, resumeCostCents: 0, activeKeywords: 2, pausedKeywords: 0 };
    expect(await eventsOf(earshot.sql, workspace.id)).toEqual([
      { name: 'keyword.resumed', data: { keyword: { id: first.id, term: first.term, kind: 'brand' }, reason: 'balance_restored', resumedAt: at } },
      { name: 'keyword.resumed', data: { keyword: { id: second.id, term: second.term, kind: 'brand' }, reason: 'balance_restored', resumedAt: at } },
      { name: 'wallet.resumed', data: { wallet: walletAfter, keywordsResumed: 2, at } },
    ]);
  });
});

describe('POST /v1/billing/top-ups/{id}/confirm', () => {
  it('answers 409 order_not_credited until Stripe says paid, then credits once; the webhook after it credits nothing', async () => {
    const { apiKey, workspace } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 4000);
    const early = await earshot.rest('POST', `/v1/billing/top-ups/${order.id}/confirm`, { key: apiKey });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('order_not_credited');

    stripe.pay(session.id);
    const confirmed = await earshot.rest('POST', `/v1/billing/top-ups/${order.id}/confirm`, { key: apiKey });
    expect(confirmed).toMatchObject({ status: 200, body: { id: order.id, status: 'credited' } });
    expect((await deliver(signedStripeEvent(webhookSecret, 'checkout.session.completed', session, clock.now()))).body.status).toBe('credited');
    expect((await earshot.rest('POST', `/v1/billing/top-ups/${order.id}/confirm`, { key: apiKey })).status).toBe(200);
    expect((await wallet(earshot.sql, workspace.id)).balanceFifteenths).toBe((580 + 4000) * 15);
  });

  it('answers 409 order_not_credited for an expired checkout, and 404 for another workspace\'s order', async () => {
    const { apiKey } = await earshot.createWorkspace();
    const { order, session } = await startTopUp(apiKey, 2000);
    stripe.expire(session.id);
    const expired = await earshot.rest('POST', `/v1/billing/top-ups/${order.id}/confirm`, { key: apiKey });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('order_not_credited');
    expect((await earshot.rest('GET', `/v1/billing/top-ups/${order.id}`, { key: apiKey })).body.status).toBe('expired');
    const other = await earshot.createWorkspace();
    expect((await earshot.rest('GET', `/v1/billing/top-ups/${order.id}`, { key: other.apiKey })).status).toBe(404);
  });
});

describe('without a payment provider', () => {
  it('answers billing_not_configured (501) for top-ups and webhook_not_configured for the webhook', async () => {
    const bare = await startTestEarshot({}, { databaseUrl: earshot.databaseUrl, clock });
    try {
      const { apiKey } = await bare.createWorkspace();
      const topUp = await bare.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000 } });
      expect(topUp.status).toBe(501);
      expect(topUp.body.error.code).toBe('billing_not_configured');
      const event = signedStripeEvent(webhookSecret, 'checkout.session.completed', { id: 'cs_test_x' }, clock.now());
      const webhook = await bare.rest('POST', '/v1/billing/stripe/webhook', { body: event.body, headers: { 'stripe-signature': event.signature } });
      expect(webhook.status).toBe(501);
      expect(webhook.body.error.code).toBe('webhook_not_configured');
    } finally {
      await bare.stop();
    }
  });
});

// The operating contract names EARSHOT_UPSTREAM_STRIPE as Stripe's one setting: with it alone, top-ups answered 501 billing_not_configured.
describe('with only EARSHOT_UPSTREAM_STRIPE set', () => {
  it('starts top-ups there, and credits from an unsigned webhook only what Stripe itself says was paid', async () => {
    const anyKeyStripe = await startFakeStripe('sk_test_earshot');
    const named = await startTestEarshot({ env: { EARSHOT_UPSTREAM_STRIPE: anyKeyStripe.url } }, { databaseUrl: earshot.databaseUrl, clock });
    try {
      const { apiKey } = await named.createWorkspace();
      const topUp = await named.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000 } });
      expect(topUp).toMatchObject({ status: 201, body: { status: 'pending', checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) } });
      const session = [...anyKeyStripe.sessions.values()].find((candidate) => candidate.client_reference_id === topUp.body.id)!;
      const unsigned = (type: string, object: Record<string, any>) =>
        named.rest('POST', '/v1/billing/stripe/webhook', { body: signedStripeEvent('whsec_a_secret_earshot_never_saw', type, object, clock.now()).body });

      // The body says paid; Stripe does not.
      const claimed = await unsigned('checkout.session.completed', { ...session, payment_status: 'paid', status: 'complete' });
      expect(claimed.body).toEqual({ received: true, orderId: topUp.body.id, status: 'pending' });
      const forged = await unsigned('checkout.session.completed', { ...session, id: 'cs_test_made_up', payment_status: 'paid' });
      expect(forged).toMatchObject({ status: 400, body: { error: { code: 'invalid_signature' } } });
      expect((await named.rest('GET', '/v1/billing/wallet', { key: apiKey })).body.balanceCents).toBe(580);

      anyKeyStripe.pay(session.id);
      expect((await unsigned('checkout.session.completed', { id: session.id })).body).toEqual({ received: true, orderId: topUp.body.id, status: 'credited' });
      expect((await named.rest('GET', '/v1/billing/wallet', { key: apiKey })).body).toMatchObject({ balanceCents: 2580, onWelcomeCredit: false });
    } finally {
      await named.stop();
      await anyKeyStripe.close();
    }
  });
});

// A Stripe-compatible server need not send every field Stripe does: one that answered a session without payment_status,
// amount_total, currency or client_reference_id made POST /v1/billing/top-ups a 500 internal_error.
describe('a Stripe-compatible server that answers sessions sparingly', () => {
  it('starts top-ups with it and credits the order its signed event names by session alone; an answer that is no session, or another order\'s, is 502', async () => {
    const sessions = new Map<string, { paid: boolean }>();
    const sparse = await startFakeServer((request) => {
      if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
        const id = `cs_test_sparse${sessions.size + 1}`;
        sessions.set(id, { paid: false });
        return { body: { id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}`, status: 'open' } };
      }
      const id = request.path.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/)?.[1];
      const session = id && sessions.get(id);
      if (request.method === 'GET' && session) return { body: { id, object: 'checkout.session', status: session.paid ? 'complete' : 'open', payment_status: session.paid ? 'paid' : 'unpaid' } };
      return null;
    });
    const secret = 'whsec_sparse';
    const sparing = await startTestEarshot({ env: { EARSHOT_UPSTREAM_STRIPE: sparse.url, EARSHOT_STRIPE_WEBHOOK_SECRET: secret } }, { databaseUrl: earshot.databaseUrl, clock });
    try {
      const { apiKey } = await sparing.createWorkspace();
      const byEvent = await sparing.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 2000 } });
      expect(byEvent).toMatchObject({ status: 201, body: { status: 'pending', checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_sparse1' } });
      const event = signedStripeEvent(secret, 'checkout.session.completed', { id: 'cs_test_sparse1', object: 'checkout.session', status: 'complete', payment_status: 'paid' }, clock.now());
      const delivered = await sparing.rest('POST', '/v1/billing/stripe/webhook', { body: event.body, headers: { 'stripe-signature': event.signature } });
      expect(delivered.body).toEqual({ received: true, orderId: byEvent.body.id, status: 'credited' });

      const byConfirmation = await sparing.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents: 3000 } });
      sessions.get('cs_test_sparse2')!.paid = true;
      expect(await sparing.rest('POST', `/v1/billing/top-ups/${byConfirmation.body.id}/confirm`, { key: apiKey })).toMatchObject({ status: 200, body: { status: 'credited' } });
      expect((await sparing.rest('GET', '/v1/billing/wallet', { key: apiKey })).body.balanceCents).toBe(580 + 2000 + 3000);

      sessions.clear();
      const sameSession = await startFakeServer((request) => (request.method === 'POST' ? { body: { id: 'cs_test_fixture', url: 'https://checkout.stripe.com/c/pay/cs_test_fixture' } } : null));
      const fixtureStripe = await startTestEarshot({ env: { EARSHOT_UPSTREAM_STRIPE: sameSession.url } }, { databaseUrl: earshot.databaseUrl, clock });
      try {
        const { apiKey: fixtureKey } = await fixtureStripe.createWorkspace();
        expect((await fixtureStripe.rest('POST', '/v1/billing/top-ups', { key: fixtureKey, body: { amountCents: 2000 } })).status).toBe(201);
        const second = await fixtureStripe.rest('POST', '/v1/billing/top-ups', { key: fixtureKey, body: { amountCents: 4000 } });
        expect(second).toMatchObject({ status: 502, body: { error: { code: 'upstream_unavailable' } } });
      } finally {
        await fixtureStripe.stop();
        await sameSession.close();
      }

      const noSession = await startFakeServer((request) => (request.method === 'POST' ? { body: { object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/x' } } : null));
      const unanswered = await startTestEarshot({ env: { EARSHOT_UPSTREAM_STRIPE: noSession.url } }, { databaseUrl: earshot.databaseUrl, clock });
      try {
        const { apiKey: otherKey } = await unanswered.createWorkspace();
        const refused = await unanswered.rest('POST', '/v1/billing/top-ups', { key: otherKey, body: { amountCents: 2000 } });
        expect(refused).toMatchObject({ status: 502, body: { error: { code: 'upstream_unavailable' } } });
      } finally {
        await unanswered.stop();
        await noSession.close();
      }
    } finally {
      await sparing.stop();
      await sparse.close();
    }
  });
});

describe('the gateway', () => {
  it('runs the webhook mutation without an API key, and nothing else', async () => {
    const event = signedStripeEvent(webhookSecret, 'customer.created', { id: 'cus_1' }, clock.now());
    const webhook = `mutation ($payload: String!, $signature: String) { receiveStripeWebhook(payload: $payload, signature: $signature) { received } }`;
    expect(await earshot.graphql(webhook, { payload: event.body, signature: event.signature })).toMatchObject({
      status: 200,
      body: { data: { receiveStripeWebhook: { received: true } } },
    });
    const refusals = [
      'mutation { startTopUp(input: { amountCents: 2000 }) { id } }',
      'mutation ($payload: String!) { receiveStripeWebhook(payload: $payload) { received } updateAutoRecharge(input: { enabled: false }) { balanceCents } }',
      'mutation ($payload: String!) { ... on Mutation { receiveStripeWebhook(payload: $payload) { received } } }',
      '{ wallet { balanceCents } }',
    ];
    for (const query of refusals) {
      const response = await earshot.graphql(query, { payload: event.body });
      expect(response.status).toBe(401);
      expect(response.body.errors[0].extensions.code).toBe('unauthorized');
    }
  });
});

describe('npm run earshot -- wallet credit', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('npm', ['run', '--silent', 'earshot', '--', 'wallet', 'credit', ...args], {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: { ...process.env, DATABASE_URL: earshot.databaseUrl },
        timeout: 60_000,
      }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
    });

  it("credits a workspace's wallet once per reference and ends its welcome credit", async () => {
    const { workspace, apiKey } = await earshot.createWorkspace();
    const first = await run(['--workspace', workspace.id, '--cents', '10000', '--reference', 'invoice-17']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ workspace: workspace.id, credited: true, creditedCents: 10000, balanceCents: 10580, keywordsResumed: 0 });
    const repeated = await run(['--workspace', workspace.id, '--cents', '10000', '--reference', 'invoice-17']);
    expect(JSON.parse(repeated.stdout)).toMatchObject({ credited: false, creditedCents: 0, balanceCents: 10580 });
    expect((await earshot.rest('GET', '/v1/billing/wallet', { key: apiKey })).body).toMatchObject({
      onWelcomeCredit: false,
      lastTopUp: { amountCents: 10000, source: 'operator', orderId: null },
    });
  });

  it('refuses an unknown workspace and a bad amount', async () => {
    expect(await run(['--workspace', 'org_unknown', '--cents', '100'])).toMatchObject({ code: 1, stderr: expect.stringContaining('not found') });
    expect((await run(['--workspace', 'org_x', '--cents', '12.5'])).code).toBe(2);
  });
});

// Two top-ups answered the same session at once both found it unheld, and the second save broke the session's
// unique index: a 500 internal_error where one order alone answered 502.
describe('two top-ups answered the same checkout session at the same instant', () => {
  it('keeps the session with one order and answers the other 502 upstream_unavailable, failing it', async () => {
    // Two orders, told apart by their idempotency keys: a retry of the first (its 1.5 s time-out passed before the
    // second order came) is the same order, not the second.
    const arrived = new Set<string>();
    let bothHere!: () => void;
    const bothArrived = new Promise<void>((resolve) => (bothHere = resolve));
    let answerBoth!: () => void;
    const answered = new Promise<void>((resolve) => (answerBoth = resolve));
    const sameSession = await startFakeServer(async (request) => {
      if (request.method !== 'POST') return null;
      arrived.add(String(request.headers['idempotency-key']));
      if (arrived.size === 2) bothHere();
      await answered;
      return { body: { id: 'cs_test_raced', url: 'https://checkout.stripe.com/c/pay/cs_test_raced' } };
    });
    const racing = await startTestEarshot({ env: { EARSHOT_UPSTREAM_STRIPE: sameSession.url } }, { databaseUrl: earshot.databaseUrl, clock });
    const holder = await earshot.sql.reserve();
    try {
      const { workspace, apiKey } = await racing.createWorkspace();
      // The racing pair must reach Stripe within its time-out of each other: a fresh instance opens its pools'
      // connections on the first requests, so two answered side by side open them before the race.
      await Promise.all([1, 2].map(() => patiently(() => racing.rest('GET', '/v1/billing/wallet', { key: apiKey }))));
      const started = Promise.all([2000, 4000].map((amountCents) => racing.rest('POST', '/v1/billing/top-ups', { key: apiKey, body: { amountCents } })));
      await bothArrived;
      // Both orders exist once Stripe has been asked. Stripe answers only once the table is held, so neither
      // request saves its session before the other has it too: the two saves meet.
      await holder`begin`;
      await holder`lock table top_up_orders in share mode`;
      answerBoth();
      expect(await waitersOnLocks(earshot.sql, 2)).toBeGreaterThanOrEqual(2);
      await holder`commit`;
      const answers = await started;
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 502]);
      expect(answers.find((answer) => answer.status === 502)!.body.error).toMatchObject({ code: 'upstream_unavailable' });
      const orders = await earshot.sql<{ status: string; session: string | null }[]>`
        select status, checkout_session_id as session from top_up_orders where workspace_id = ${workspace.id} order by status`;
      expect(orders).toEqual([{ status: 'failed', session: null }, { status: 'pending', session: 'cs_test_raced' }]);
    } finally {
      holder.release();
      await racing.stop();
      await sameSession.close();
    }
  });
});
