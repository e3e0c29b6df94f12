import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export type TopUpStatus = 'pending' | 'credited' | 'expired' | 'failed';

/** A top-up through the payment provider: created, then credited once when paid. */
export interface TopUpOrderRow {
  id: string;
  workspaceId: string;
  amountCents: number;
  status: TopUpStatus;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  createdAt: Date;
  creditedAt: Date | null;
}

export async function insertTopUpOrder(sql: Queryable, order: { workspaceId: string; amountCents: number; at: Date }): Promise<TopUpOrderRow> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* insertTopUpOrder */
    insert into top_up_orders (id, workspace_id, amount_cents, created_at)
    values (${newId('top')}, ${order.workspaceId}, ${order.amountCents}, ${order.at})
    returning *`;
  return row;
}

export async function attachCheckoutSession(sql: Queryable, id: string, session: { id: string; url: string }): Promise<TopUpOrderRow> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* attachCheckoutSession */
    update top_up_orders set checkout_session_id = ${session.id}, checkout_url = ${session.url}
    where id = ${id}
    returning *`;
  return row;
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

/** Locks an order for crediting: the webhook and a confirmation racing each other take turns. */
export async function lockTopUpOrder(sql: Queryable, id: string): Promise<TopUpOrderRow | undefined> {
  const [row] = await sql<TopUpOrderRow[]>`
    /* lockTopUpOrder */
    select * from top_up_orders where id = ${id} for update`;
  return row;
}
