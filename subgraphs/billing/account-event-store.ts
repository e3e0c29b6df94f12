import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

/** The account events of spec 6.4, the names a webhook channel may subscribe to. */
export const accountEventNames = [
  'keyword.capped',
  'keyword.paused_for_balance',
  'keyword.resumed',
  'wallet.low',
  'wallet.paused',
  'wallet.resumed',
] as const;
export type AccountEventName = (typeof accountEventNames)[number];

export interface AccountEvent {
  workspaceId: string;
  name: AccountEventName;
  /** The event's `data` body as 6.4 gives it. */
  data: Record<string, unknown>;
  occurredAt: Date;
}

export interface AccountEventRow extends AccountEvent {
  /** `evt_…`: the delivery's stable identity, resent unchanged on every retry. */
  id: string;
  createdAt: Date;
}

/**
 * Records an event in the outbox inside the caller's transaction, so the
 * event exists exactly when the transition it describes was committed.
 */
export async function recordAccountEvent(sql: Queryable, event: AccountEvent): Promise<void> {
  await recordAccountEvents(sql, [event]);
}

/**
 * Records many events in one statement (the daily tick pauses thousands of
 * keywords at once). The transaction takes its id before the events take
 * their sequence numbers: delivery passes a gap in the sequence once every
 * transaction with an id that was running when it saw the gap has ended.
 */
export async function recordAccountEvents(sql: Queryable, events: readonly AccountEvent[]): Promise<void> {
  if (events.length === 0) return;
  await sql`
    /* recordAccountEvents */
    with writer as materialized (select pg_current_xact_id())
    insert into account_events (id, workspace_id, name, data, occurred_at)
    select id, workspace_id, name, data, occurred_at
    from writer, unnest(${sql.array(events.map(() => newId('evt')))}::text[],
                ${sql.array(events.map((event) => event.workspaceId))}::text[],
                ${sql.array(events.map((event) => event.name))}::text[],
                ${sql.array(events.map((event) => JSON.stringify(event.data)))}::jsonb[],
                ${sql.array(events.map((event) => event.occurredAt.toISOString()))}::timestamptz[])
         as e(id, workspace_id, name, data, occurred_at)`;
}

/** The workspace's events in the order they were recorded, after the event `after` when given. */
export async function listAccountEvents(
  sql: Queryable,
  workspaceId: string,
  page: { after?: string; limit?: number } = {},
): Promise<AccountEventRow[]> {
  return sql<AccountEventRow[]>`
    /* listAccountEvents */
    select id, workspace_id, name, data, occurred_at, created_at
    from account_events
    where workspace_id = ${workspaceId}
      ${page.after ? sql`and seq > (select seq from account_events where id = ${page.after})` : sql``}
    order by seq
    limit ${page.limit ?? 1000}`;
}

/** Events of every workspace recorded after `afterSeq`, in recording order, for delivery to channels. */
export async function listAccountEventsAfter(sql: Queryable, afterSeq: number, limit: number): Promise<(AccountEventRow & { seq: number })[]> {
  return sql<(AccountEventRow & { seq: number })[]>`
    /* listAccountEventsAfter */
    select id, seq::float8 as seq, workspace_id, name, data, occurred_at, created_at
    from account_events
    where seq > ${afterSeq}
    order by seq
    limit ${limit}`;
}
