import { createHmac, randomBytes } from 'node:crypto';
import { type FakeResponse, type FakeUpstream, type RecordedRequest, startFakeServer } from './fake-server.ts';

/**
 * Stripe's Checkout Sessions API on a local port: it checks what the real
 * one checks (a bearer secret key, a form-encoded body, the fields a
 * `payment` session needs) and answers with the real object shapes.
 */
export interface FakeStripe extends FakeUpstream {
  secretKey: string;
  sessions: Map<string, Record<string, any>>;
  /** The payer completes the checkout. */
  pay(sessionId: string): Record<string, any>;
  /** The checkout times out unpaid. */
  expire(sessionId: string): Record<string, any>;
}

const stripeError = (status: number, message: string, param?: string): FakeResponse => ({
  status,
  body: { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
});

export async function startFakeStripe(secretKey = `sk_test_${randomBytes(12).toString('hex')}`): Promise<FakeStripe> {
  const sessions = new Map<string, Record<string, any>>();
  const byIdempotencyKey = new Map<string, Record<string, any>>();

  const createSession = (request: RecordedRequest): FakeResponse => {
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return stripeError(400, 'Stripe takes form-encoded bodies');
    }
    const form = new URLSearchParams(request.body);
    const required = [
      'mode',
      'line_items[0][price_data][currency]',
      'line_items[0][price_data][unit_amount]',
      'line_items[0][price_data][product_data][name]',
      'line_items[0][quantity]',
      'success_url',
    ];
    for (const param of required) if (!form.get(param)) return stripeError(400, `Missing required param: ${param}.`, param);
    if (form.get('mode') !== 'payment') return stripeError(400, 'This fake only knows payment mode', 'mode');
    const unitAmount = Number(form.get('line_items[0][price_data][unit_amount]'));
    if (!Number.isInteger(unitAmount) || unitAmount < 50) return stripeError(400, 'Invalid integer', 'line_items[0][price_data][unit_amount]');
    const key = String(request.headers['idempotency-key'] ?? '');
    if (key && byIdempotencyKey.has(key)) return { body: byIdempotencyKey.get(key) };
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const metadata: Record<string, string> = {};
    for (const [name, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(name);
      if (match) metadata[match[1]] = value;
    }
    const quantity = Number(form.get('line_items[0][quantity]'));
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      cancel_url: form.get('cancel_url'),
      client_reference_id: form.get('client_reference_id'),
      created: Math.floor(Date.now() / 1000),
      currency: form.get('line_items[0][price_data][currency]'),
      customer: null,
      expires_at: Math.floor(Date.now() / 1000) + 86_400,
      livemode: false,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: form.get('success_url'),
      url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
    };
    sessions.set(id, session);
    if (key) byIdempotencyKey.set(key, session);
    return { body: session };
  };

  const upstream = await startFakeServer((request) => {
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') return createSession(request);
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) {
      const session = sessions.get(decodeURIComponent(retrieve[1]));
      return session ? { body: session } : stripeError(404, `No such checkout.session: '${retrieve[1]}'`, 'session');
    }
    return null;
  });

  return {
    ...upstream,
    secretKey,
    sessions,
    pay(sessionId) {
      return Object.assign(sessions.get(sessionId)!, { payment_status: 'paid', status: 'complete', payment_intent: `pi_${randomBytes(12).toString('hex')}` });
    },
    expire(sessionId) {
      return Object.assign(sessions.get(sessionId)!, { status: 'expired' });
    },
  };
}

/** A webhook delivery as Stripe sends it: the event's raw JSON and its `Stripe-Signature` header. */
export function signedStripeEvent(secret: string, type: string, session: Record<string, any>, at: Date): { body: string; signature: string } {
  const timestamp = Math.floor(at.getTime() / 1000);
  const body = JSON.stringify(
    {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2024-06-20',
      created: timestamp,
      data: { object: session },
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
