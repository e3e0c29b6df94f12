import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export type TopUpStatus = 'pending' | 'credited' | 'expired' | 'failed';

/**
 * A top-up through the payment provider: created, then credited once when
 * paid. `checkout`: the payer pays on a Checkout page; `auto_recharge`: the
 * saved card is charged off-session when the balance falls under the
 * threshold (schema/029_auto_recharge.sql).
 */
export interface TopUpOrderRow {
  id: string;
  workspaceId: string;
  amountCents: number;
  status: TopUpStatus;
  source: 'checkout' | 'auto_recharge';
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  /** Auto-recharge: the wallet's credit epoch it came due in, and the key Stripe makes one payment for. */
  creditEpoch: number | null;
  idempotencyKey: string | null;
  paymentIntentId: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  failedAt: Date | null;
  /** Auto-recharge: runs that asked Stripe and got no answer. */
  runs: number;
  createdAt: Date;
  creditedAt: Date | null;
}

/** A checkout order, held by the request that made it (`leaseUntil`) while it asks Stripe for the session. */
export async function insertTopUpOrder(sql: Queryable, order: { workspaceId: string; amountCents: number; at: Date; leaseUntil: Date }): Promise<TopUpOrderRow> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* insertTopUpOrder */
    insert into top_up_orders (id, workspace_id, amount_cents, created_at, lease_until)
    values (${newId('top')}, ${order.workspaceId}, ${order.amountCents}, ${order.at}, ${order.leaseUntil})
    returning *`;
  return row;
}

/**
 * Takes over the workspace's oldest checkout order of `amountCents` that
 * never got its session although its request's hold ran out (the process
 * died around the call to Stripe), made after `since`; undefined when there
 * is none. The taker holds it until `leaseUntil`.
 */
export async function claimUnstartedTopUpOrder(
  sql: Queryable,
  order: { workspaceId: string; amountCents: number; since: Date; now: Date; leaseUntil: Date },
): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* claimUnstartedTopUpOrder */
    update top_up_orders set lease_until = ${order.leaseUntil}
    where id = (
      select id from top_up_orders
      where workspace_id = ${order.workspaceId} and source = 'checkout' and status = 'pending' and checkout_session_id is null
        and amount_cents = ${order.amountCents} and created_at > ${order.since} and (lease_until is null or lease_until <= ${order.now})
      order by created_at, id
      limit 1
      for update skip locked
    )
    returning *`;
  return row;
}

/**
 * Fails every checkout order made at or before `madeBy` that never got its
 * session and that no request holds: the process that made it died around
 * the call to Stripe, and no retry may take it over any more. Returns how
 * many were failed.
 */
export async function failUnstartedTopUpOrders(sql: Queryable, orders: { madeBy: Date; now: Date }): Promise<number> {
  const rows = await sql`
    /* failUnstartedTopUpOrders */
    update top_up_orders set status = 'failed', failed_at = ${orders.now}, lease_until = null
    where source = 'checkout' and status = 'pending' and checkout_session_id is null
      and created_at <= ${orders.madeBy} and (lease_until is null or lease_until <= ${orders.now})
    returning id`;
  return rows.length;
}

/** Saves an order's checkout session; undefined when another order holds that session (its unique index decides, races included). */
export async function attachCheckoutSession(sql: Queryable, id: string, session: { id: string; url: string }): Promise<TopUpOrderRow | undefined> {
  try {
    const [row] = await sql<TopUpOrderRow[]>`
      /* attachCheckoutSession */
      update top_up_orders set checkout_session_id = ${session.id}, checkout_url = ${session.url}
      where id = ${id}
      returning *`;
    return row;
  } catch (error) {
    const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
    if (code === '23505' && constraint === 'top_up_orders_checkout_session_id_key') return undefined;
    throw error;
  }
}

/** Moves a pending order to `status`; a credited order never moves again. */
export async function settleTopUpOrder(sql: Queryable, id: string, status: Exclude<TopUpStatus, 'pending'>, at: Date): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* settleTopUpOrder */
    update top_up_orders set status = ${status}, credited_at = ${status === 'credited' ? at : null}
    where id = ${id} and status <> 'credited'
    returning *`;
  return row;
}

export async function findTopUpOrder(sql: Queryable, workspaceId: string, id: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* findTopUpOrder */
    select * from top_up_orders where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

/** Any workspace's order: the provider's webhook names orders by id alone. */
export async function findTopUpOrderById(sql: Queryable, id: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* findTopUpOrderById */
    select * from top_up_orders where id = ${id}`;
  return row;
}

/** The order a Checkout Session was made for: the provider's events name the session, which names one order at most. */
export async function findTopUpOrderByCheckoutSession(sql: Queryable, checkoutSessionId: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* findTopUpOrderByCheckoutSession */
    select * from top_up_orders where checkout_session_id = ${checkoutSessionId}`;
  return row;
}

/** Locks an order for crediting: the webhook and a confirmation racing each other take turns. */
export async function lockTopUpOrder(sql: Queryable, id: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* lockTopUpOrder */
    select * from top_up_orders where id = ${id} for update`;
  return row;
}

/** A sent auto-recharge the `payment_intent.*` webhook names by its PaymentIntent. */
export async function findOrderByPaymentIntent(sql: Queryable, paymentIntentId: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* findOrderByPaymentIntent */
    select * from top_up_orders where payment_intent_id = ${paymentIntentId}`;
  return row;
}

/** Workers listen here for auto-recharges to send (jobs/auto-recharge/). */
export const autoRechargesDueChannel = 'earshot_auto_recharges_due';

/**
 * An auto-recharge order for each wallet, of its configured amount, under
 * the key of its credit epoch and auto-recharge revision: none when that key
 * had its try already, or while another of the wallet's auto-recharges is in
 * flight (a unique index each). Workers are woken for the orders made, once
 * the transaction commits. Returns their ids.
 */
export async function insertDueAutoRecharges(sql: Queryable, due: readonly { workspaceId: string; idempotencyKey: string }[], at: Date): Promise<string[]> {
  if (due.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    /* insertDueAutoRecharges */
    insert into top_up_orders (id, workspace_id, amount_cents, source, credit_epoch, idempotency_key, created_at)
    select due.id, w.workspace_id, w.auto_recharge_amount_cents, 'auto_recharge', w.credit_epoch, due.idempotency_key, ${at}
    from unnest(${sql.array(due.map(() => newId('top')))}::text[],
                ${sql.array(due.map((wallet) => wallet.workspaceId))}::text[],
                ${sql.array(due.map((wallet) => wallet.idempotencyKey))}::text[]) as due(id, workspace_id, idempotency_key)
    join wallets w on w.workspace_id = due.workspace_id
    where w.auto_recharge_enabled and w.auto_recharge_amount_cents is not null and w.stripe_payment_method_id is not null
      and not w.auto_recharge_awaiting_rise
    on conflict do nothing
    returning id`;
  if (rows.length) await sql`/* announceAutoRechargesDue */ select pg_notify(${autoRechargesDueChannel}, '')`;
  return rows.map((row) => row.id);
}

/**
 * Leases up to `limit` auto-recharges not yet answered by Stripe whose lease
 * is free or has run out (a worker that took one died): a worker sends each
 * it took, and no other takes it meanwhile.
 */
export async function claimDueAutoRecharges(sql: Queryable, now: Date, leaseSeconds: number, limit: number): Promise<TopUpOrderRow[]> {
  return sql<TopUpOrderRow[]>`
    /* claimDueAutoRecharges */
    update top_up_orders set lease_until = ${now}::timestamptz + make_interval(secs => ${leaseSeconds})
    where id in (
      select id from top_up_orders
      where source = 'auto_recharge' and status = 'pending' and payment_intent_id is null
        and (lease_until is null or lease_until <= ${now})
      order by created_at, id
      limit ${limit}
      for update skip locked
    )
    returning *`;
}

/** The PaymentIntent Stripe made for an auto-recharge: from now on its webhook settles the order. */
export async function attachPaymentIntent(sql: Queryable, id: string, paymentIntentId: string): Promise<void> {
  await sql`
    /* attachPaymentIntent */
    update top_up_orders set payment_intent_id = ${paymentIntentId}, lease_until = null
    where id = ${id} and payment_intent_id is null`;
}

/** A run that got no answer from Stripe: counted, and the order waits for its lease to run out before the next. */
export async function recordUnansweredRun(sql: Queryable, id: string): Promise<number> {
  const [row] = await sql<{ runs: number }[]>`
    /* recordUnansweredRun */
    update top_up_orders set runs = runs + 1 where id = ${id} returning runs`;
  return row.runs;
}

/** Settles a pending auto-recharge as failed, with Stripe's reason; an order settled before keeps its state. */
export async function failAutoRecharge(
  sql: Queryable,
  id: string,
  failure: { code: string; message: string; paymentIntentId: string | null },
  at: Date,
): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* failAutoRecharge */
    update top_up_orders set
      status = 'failed', failure_code = ${failure.code}, failure_message = ${failure.message}, failed_at = ${at},
      payment_intent_id = coalesce(payment_intent_id, ${failure.paymentIntentId}), lease_until = null
    where id = ${id} and status = 'pending'
    returning *`;
  return row;
}

/** The workspace's newest auto-recharge, for the wallet's settings. */
export async function newestAutoRecharge(sql: Queryable, workspaceId: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* newestAutoRecharge */
    select * from top_up_orders where workspace_id = ${workspaceId} and source = 'auto_recharge'
    order by created_at desc, id desc
    limit 1`;
  return row;
}
