import { createHmac, randomBytes } from 'node:crypto';
import { type FakeResponse, type FakeUpstream, type RecordedRequest, startFakeServer } from './fake-server.ts';

/**
 * The cards a user can save on a setup session's page, named after what
 * charging them later off-session does, as Stripe's test cards behave:
 * `visa` (4242) is charged, `declined` (0002) is declined, and
 * `authentication_required` (3184) needs its owner to authenticate, which an
 * off-session payment cannot do.
 */
export type FakeCard = 'visa' | 'declined' | 'authentication_required';

const cards: Record<FakeCard, { last4: string; refusal: { code: string; decline_code: string; message: string } | null }> = {
  visa: { last4: '4242', refusal: null },
  declined: { last4: '0002', refusal: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  authentication_required: {
    last4: '3184',
    refusal: { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' },
  },
};

/**
 * Stripe's API on a local port, as far as Earshot speaks it: Customers,
 * Checkout Sessions in `payment` and `setup` mode, SetupIntents and
 * PaymentIntents confirmed off-session. It checks what the real one checks
 * (a bearer secret key, form-encoded bodies, the parameters each call
 * needs, a saved card belonging to the customer) and answers with the real
 * object shapes and error envelopes. Like Stripe, it keeps the answer to
 * each `Idempotency-Key` and answers a repeated request with it, refusing
 * the key with other parameters, or while its first request is still going.
 */
export interface FakeStripe extends FakeUpstream {
  secretKey: string;
  sessions: Map<string, Record<string, any>>;
  customers: Map<string, Record<string, any>>;
  paymentIntents: Map<string, Record<string, any>>;
  /** The payer completes a payment-mode checkout. */
  pay(sessionId: string): Record<string, any>;
  /** The checkout times out unpaid. */
  expire(sessionId: string): Record<string, any>;
  /** The user saves `card` on a setup-mode checkout's page: the session completes and its SetupIntent succeeds. */
  saveCard(sessionId: string, card?: FakeCard): Record<string, any>;
  /** Awaited with each PaymentIntent Stripe charged, before the answer leaves: a test delivers Stripe's webhook there to have it arrive first. */
  beforeAnswer: ((intent: Record<string, any>) => Promise<void>) | null;
}

const stripeError = (status: number, message: string, param?: string): FakeResponse => ({
  status,
  body: { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
});

const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `metadata[key]` (or, under `parent`, `parent[metadata][key]`) form fields as an object. */
function metadataOf(form: URLSearchParams, parent?: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  const pattern = parent ? new RegExp(`^${parent}\\[metadata\\]\\[(.+)\\]$`) : /^metadata\[(.+)\]$/;
  for (const [name, value] of form) {
    const match = pattern.exec(name);
    if (match) metadata[match[1]] = value;
  }
  return metadata;
}

export async function startFakeStripe(secretKey = `sk_test_${randomBytes(12).toString('hex')}`): Promise<FakeStripe> {
  const sessions = new Map<string, Record<string, any>>();
  const customers = new Map<string, Record<string, any>>();
  const setupIntents = new Map<string, Record<string, any>>();
  const paymentMethods = new Map<string, Record<string, any> & { fakeCard: FakeCard }>();
  const paymentIntents = new Map<string, Record<string, any>>();
  const answered = new Map<string, { path: string; body: string; response: FakeResponse }>();
  const inFlight = new Set<string>();

  const createCustomer = (form: URLSearchParams): FakeResponse => {
    const customer = { id: stripeId('cus'), object: 'customer', created: now(), description: form.get('description'), email: null, livemode: false, metadata: metadataOf(form) };
    customers.set(customer.id, customer);
    return { body: customer };
  };

  const createPaymentSession = (form: URLSearchParams): FakeResponse => {
    const required = [
      'line_items[0][price_data][currency]',
      'line_items[0][price_data][unit_amount]',
      'line_items[0][price_data][product_data][name]',
      'line_items[0][quantity]',
      'success_url',
    ];
    for (const param of required) if (!form.get(param)) return stripeError(400, `Missing required param: ${param}.`, param);
    const unitAmount = Number(form.get('line_items[0][price_data][unit_amount]'));
    if (!Number.isInteger(unitAmount) || unitAmount < 50) return stripeError(400, 'Invalid integer', 'line_items[0][price_data][unit_amount]');
    const id = stripeId('cs_test');
    const quantity = Number(form.get('line_items[0][quantity]'));
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      cancel_url: form.get('cancel_url'),
      client_reference_id: form.get('client_reference_id'),
      created: now(),
      currency: form.get('line_items[0][price_data][currency]'),
      customer: null,
      expires_at: now() + 86_400,
      livemode: false,
      metadata: metadataOf(form),
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      setup_intent: null,
      status: 'open',
      success_url: form.get('success_url'),
      url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
    };
    sessions.set(id, session);
    return { body: session };
  };

  const createSetupSession = (form: URLSearchParams): FakeResponse => {
    if ([...form.keys()].some((name) => name.startsWith('line_items'))) return stripeError(400, 'You can not pass `line_items` in `setup` mode.', 'line_items');
    if (!form.get('success_url')) return stripeError(400, 'Missing required param: success_url.', 'success_url');
    if (!form.get('currency') && !form.get('payment_method_types[0]')) {
      return stripeError(400, 'currency is required in setup mode when payment_method_types is not passed.', 'currency');
    }
    const customer = form.get('customer');
    if (customer && !customers.has(customer)) return stripeError(400, `No such customer: '${customer}'`, 'customer');
    const id = stripeId('cs_test');
    const setupIntent = {
      id: stripeId('seti'),
      object: 'setup_intent',
      created: now(),
      customer,
      livemode: false,
      metadata: metadataOf(form, 'setup_intent_data'),
      payment_method: null,
      payment_method_types: ['card'],
      status: 'requires_payment_method',
      usage: 'off_session',
    };
    setupIntents.set(setupIntent.id, setupIntent);
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: null,
      amount_total: null,
      cancel_url: form.get('cancel_url'),
      client_reference_id: form.get('client_reference_id'),
      created: now(),
      currency: form.get('currency'),
      customer,
      expires_at: now() + 86_400,
      livemode: false,
      metadata: metadataOf(form),
      mode: 'setup',
      payment_intent: null,
      payment_status: 'no_payment_required',
      setup_intent: setupIntent.id,
      status: 'open',
      success_url: form.get('success_url'),
      url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
    };
    sessions.set(id, session);
    return { body: session };
  };

  const publicPaymentMethod = ({ fakeCard: _, ...method }: Record<string, any>) => method;

  /** `POST /v1/payment_intents` with `confirm=true&off_session=true`: charged at once, or refused with a 402 `card_error`. */
  const createPaymentIntent = async (form: URLSearchParams): Promise<FakeResponse> => {
    for (const param of ['amount', 'currency']) if (!form.get(param)) return stripeError(400, `Missing required param: ${param}.`, param);
    const amount = Number(form.get('amount'));
    if (!Number.isInteger(amount) || amount < 50) return stripeError(400, 'Amount must be at least $0.50 usd', 'amount');
    if (form.get('off_session') === 'true' && form.get('confirm') !== 'true') {
      return stripeError(400, 'You can only pass `off_session` when `confirm` is true.', 'off_session');
    }
    const method = paymentMethods.get(form.get('payment_method') ?? '');
    if (!method) return stripeError(400, `No such PaymentMethod: '${form.get('payment_method')}'`, 'payment_method');
    if (method.customer !== form.get('customer')) {
      return stripeError(400, 'The provided PaymentMethod does not belong to the Customer given.', 'payment_method');
    }
    const refusal = cards[method.fakeCard].refusal;
    const intent: Record<string, any> = {
      id: stripeId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: refusal ? 0 : amount,
      capture_method: 'automatic',
      confirmation_method: 'automatic',
      created: now(),
      currency: form.get('currency'),
      customer: form.get('customer'),
      description: form.get('description'),
      last_payment_error: refusal ? { type: 'card_error', ...refusal, payment_method: publicPaymentMethod(method) } : null,
      latest_charge: stripeId('ch'),
      livemode: false,
      metadata: metadataOf(form),
      payment_method: method.id,
      status: refusal ? 'requires_payment_method' : 'succeeded',
    };
    paymentIntents.set(intent.id, intent);
    if (refusal) {
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            ...refusal,
            charge: intent.latest_charge,
            doc_url: `https://stripe.com/docs/error-codes/${refusal.code.replace(/_/g, '-')}`,
            payment_intent: intent,
            payment_method: publicPaymentMethod(method),
          },
        },
      };
    }
    await fake.beforeAnswer?.(intent);
    return { body: intent };
  };

  const post = async (request: RecordedRequest): Promise<FakeResponse | null> => {
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return stripeError(400, 'Stripe takes form-encoded bodies');
    const form = new URLSearchParams(request.body);
    if (request.path === '/v1/customers') return createCustomer(form);
    if (request.path === '/v1/checkout/sessions') {
      if (form.get('mode') === 'payment') return createPaymentSession(form);
      if (form.get('mode') === 'setup') return createSetupSession(form);
      return stripeError(400, form.get('mode') ? 'This fake knows payment and setup mode' : 'Missing required param: mode.', 'mode');
    }
    if (request.path === '/v1/payment_intents') return createPaymentIntent(form);
    return null;
  };

  const retrieve = (request: RecordedRequest): FakeResponse | null => {
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (session) {
      const found = sessions.get(decodeURIComponent(session[1]));
      return found ? { body: found } : stripeError(404, `No such checkout.session: '${session[1]}'`, 'session');
    }
    const setup = /^\/v1\/setup_intents\/([^/]+)$/.exec(request.path);
    if (setup) {
      const found = setupIntents.get(decodeURIComponent(setup[1]));
      if (!found) return stripeError(404, `No such setupintent: '${setup[1]}'`, 'intent');
      const method = found.payment_method && paymentMethods.get(found.payment_method);
      return { body: request.query.getAll('expand[]').includes('payment_method') && method ? { ...found, payment_method: publicPaymentMethod(method) } : found };
    }
    return null;
  };

  const upstream = await startFakeServer(async (request) => {
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    if (request.method === 'GET') return retrieve(request);
    if (request.method !== 'POST') return null;
    const key = String(request.headers['idempotency-key'] ?? '');
    if (key && inFlight.has(key)) {
      return {
        status: 409,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'idempotency_key_in_use',
            message: 'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through).',
          },
        },
      };
    }
    const earlier = key ? answered.get(key) : undefined;
    if (earlier) {
      if (earlier.path !== request.path || earlier.body !== request.body) {
        return {
          status: 400,
          body: { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } },
        };
      }
      return { ...earlier.response, headers: { ...earlier.response.headers, 'idempotent-replayed': 'true' } };
    }
    if (key) inFlight.add(key);
    const response = await post(request).finally(() => inFlight.delete(key));
    // Stripe keeps the answer of every request it began to execute, refusals included.
    if (key && response && (response.status ?? 200) !== 401) answered.set(key, { path: request.path, body: request.body, response });
    return response;
  });

  const fake: FakeStripe = {
    ...upstream,
    secretKey,
    sessions,
    customers,
    paymentIntents,
    beforeAnswer: null,
    pay(sessionId) {
      return Object.assign(sessions.get(sessionId)!, { payment_status: 'paid', status: 'complete', payment_intent: stripeId('pi') });
    },
    expire(sessionId) {
      return Object.assign(sessions.get(sessionId)!, { status: 'expired' });
    },
    saveCard(sessionId, card = 'visa') {
      const session = sessions.get(sessionId)!;
      const method = {
        id: stripeId('pm'),
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: cards[card].last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit' },
        created: now(),
        customer: session.customer,
        livemode: false,
        fakeCard: card,
      };
      paymentMethods.set(method.id, method);
      Object.assign(setupIntents.get(session.setup_intent)!, { payment_method: method.id, status: 'succeeded' });
      return Object.assign(session, { status: 'complete' });
    },
  };
  return fake;
}

/** The environment that points Earshot at this fake, with the webhook endpoint's signing secret. */
export const stripeEnv = (stripe: FakeStripe, webhookSecret: string) => ({
  EARSHOT_STRIPE_SECRET_KEY: stripe.secretKey,
  EARSHOT_STRIPE_WEBHOOK_SECRET: webhookSecret,
  EARSHOT_UPSTREAM_STRIPE: stripe.url,
});

/** A webhook delivery as Stripe sends it: the event's raw JSON about `object` and its `Stripe-Signature` header. */
export function signedStripeEvent(secret: string, type: string, object: Record<string, any>, at: Date): { body: string; signature: string } {
  const timestamp = Math.floor(at.getTime() / 1000);
  const body = JSON.stringify(
    {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2024-06-20',
      created: timestamp,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  );
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { body, signature: `t=${timestamp},v1=${v1}` };
}
