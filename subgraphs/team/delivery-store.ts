import type { ChannelTarget } from './channel-store.ts';
import type { Queryable } from '../../runtime/database.ts';

export type DeliveryKind = 'mention' | 'digest' | 'event' | 'test';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt as the log keeps it. */
export interface DeliveryAttempt {
  at: string;
  /** The HTTP status answered; null for a time-out, a network error or a refused address. */
  status: number | null;
  error: string | null;
}

export interface DeliveryRow {
  id: string;
  workspaceId: string;
  /** Where it goes: a channel, an owner's address (`userId`, owner e-mails) or the workspace's Slack notifications; exactly one. */
  channelId: string | null;
  userId: string | null;
  slackNotifications: boolean;
  kind: DeliveryKind;
  alertId: string | null;
  alertName: string | null;
  mentionId: string | null;
  mentionSummary: { platform: string; url: string; text: string } | null;
  accountEventId: string | null;
  digestPeriod: Date | null;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  attemptLog: DeliveryAttempt[];
  error: string | null;
  body: string;
  nextAttemptAt: Date;
  giveUpAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
}

/** A delivery to enqueue; `body` already holds `id`, so every attempt sends the same bytes. */
export interface NewDelivery {
  id: string;
  workspaceId: string;
  /** One of `channelId`, `userId` (an owner e-mail) or `slackNotifications`. */
  channelId?: string | null;
  userId?: string | null;
  slackNotifications?: boolean;
  kind: DeliveryKind;
  event: string;
  body: string;
  alertId?: string | null;
  alertName?: string | null;
  mentionId?: string | null;
  mentionSummary?: DeliveryRow['mentionSummary'];
  accountEventId?: string | null;
  digestPeriod?: Date | null;
  giveUpAt?: Date | null;
  /** When the first attempt is due; default now. A test send leases its row at once so no dispatcher takes it. */
  nextAttemptAt?: Date;
  /** When an attempt began that its sender makes itself, outside any dispatcher (a test send); default none. */
  attemptStartedAt?: Date | null;
}

/**
 * A claimed delivery with what sending needs of where it goes, read at send
 * time (a rotated secret signs at once): its channel, or the owner's
 * address. `lane` names the destination whose sends the dispatcher bounds
 * together (the channel, the owner, the workspace's Slack notifications).
 */
export interface ClaimedDelivery extends DeliveryRow {
  lane: string;
  channelKind: string | null;
  channelUrl: string | null;
  /** The channel's own headers as stored (sealed). */
  channelSealedHeaders: string | null;
  /** The channel's signing secret as stored (sealed). */
  channelSealedSecret: string | null;
  channelTarget: ChannelTarget;
  userEmail: string | null;
}

/** Woken whenever deliveries are enqueued, so dispatchers send at once instead of on their next poll. */
export const deliveriesDueChannel = 'earshot_deliveries_due';

const deliveryColumns = (sql: Queryable, alias = 'd') => sql`
  ${sql(alias)}.id, ${sql(alias)}.workspace_id, ${sql(alias)}.channel_id, ${sql(alias)}.user_id, ${sql(alias)}.slack_notifications, ${sql(alias)}.kind, ${sql(alias)}.alert_id,
  ${sql(alias)}.alert_name, ${sql(alias)}.mention_id, ${sql(alias)}.mention_summary, ${sql(alias)}.account_event_id,
  ${sql(alias)}.digest_period, ${sql(alias)}.event, ${sql(alias)}.status, ${sql(alias)}.attempts, ${sql(alias)}.attempt_log,
  ${sql(alias)}.error, ${sql(alias)}.body, ${sql(alias)}.next_attempt_at, ${sql(alias)}.give_up_at, ${sql(alias)}.sent_at,
  ${sql(alias)}.created_at`;

/**
 * Enqueues deliveries; one already enqueued for the same channel and thing
 * (rule and mention, account event, rule and digest period) is skipped, so
 * a job that runs twice delivers once. Returns the ids enqueued now and,
 * inside a transaction, wakes dispatchers at its commit.
 */
export async function insertDeliveries(sql: Queryable, deliveries: readonly NewDelivery[], now: Date): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const column = <T>(pick: (d: NewDelivery) => T) => deliveries.map(pick);
  const rows = await sql<{ id: string }[]>`
    /* insertDeliveries */
    insert into deliveries (id, workspace_id, channel_id, user_id, slack_notifications, kind, event, body, alert_id, alert_name, mention_id,
                            mention_summary, account_event_id, digest_period, give_up_at, next_attempt_at, attempt_started_at, created_at)
    select t.id, t.workspace_id, t.channel_id, t.user_id, t.slack_notifications, t.kind, t.event, t.body, t.alert_id, t.alert_name, t.mention_id,
           t.mention_summary, t.account_event_id, t.digest_period, t.give_up_at, t.next_attempt_at, t.attempt_started_at, ${now}
    from unnest(${sql.array(column((d) => d.id))}::text[], ${sql.array(column((d) => d.workspaceId))}::text[],
                ${sql.array(column((d) => d.channelId ?? null))}::text[], ${sql.array(column((d) => d.userId ?? null))}::text[],
                ${sql.array(column((d) => d.slackNotifications ?? false))}::boolean[], ${sql.array(column((d) => d.kind))}::text[],
                ${sql.array(column((d) => d.event))}::text[], ${sql.array(column((d) => d.body))}::text[],
                ${sql.array(column((d) => d.alertId ?? null))}::text[], ${sql.array(column((d) => d.alertName ?? null))}::text[],
                ${sql.array(column((d) => d.mentionId ?? null))}::text[],
                ${sql.array(column((d) => (d.mentionSummary ? JSON.stringify(d.mentionSummary) : null)))}::jsonb[],
                ${sql.array(column((d) => d.accountEventId ?? null))}::text[],
                ${sql.array(column((d) => d.digestPeriod?.toISOString() ?? null))}::timestamptz[],
                ${sql.array(column((d) => d.giveUpAt?.toISOString() ?? null))}::timestamptz[],
                ${sql.array(column((d) => (d.nextAttemptAt ?? now).toISOString()))}::timestamptz[],
                ${sql.array(column((d) => d.attemptStartedAt?.toISOString() ?? null))}::timestamptz[])
         as t(id, workspace_id, channel_id, user_id, slack_notifications, kind, event, body, alert_id, alert_name, mention_id, mention_summary,
              account_event_id, digest_period, give_up_at, next_attempt_at, attempt_started_at)
    on conflict do nothing
    returning id`;
  if (rows.length) await sql`/* announceDeliveriesDue */ select pg_notify(${deliveriesDueChannel}, '')`;
  return rows.map((row) => row.id);
}

/** The destination a delivery's sends are bounded by: its channel, its owner, or the workspace's Slack notifications. */
const laneOf = (sql: Queryable, alias: string) => sql`coalesce(${sql(alias)}.channel_id, ${sql(alias)}.user_id, 'slack:' || ${sql(alias)}.workspace_id)`;

/** What the log says of an attempt whose sender died before its outcome was recorded. */
export const interruptedAttemptError = 'no answer recorded: the sending process stopped during this attempt';

/**
 * Claims due pending deliveries for one dispatcher: at most `perLane` of a
 * destination, none of a lane in `busyLanes` (this dispatcher's own sends
 * still under way), so a slow or dead endpoint holds only its own
 * deliveries. A claimed row is leased by moving `next_attempt_at` past the
 * send's time limit and marked with the attempt's start: a dispatcher that
 * dies mid-send leaves it pending, due again when the lease ends, and the
 * claim then logs and counts the interrupted attempt (it may have reached
 * the endpoint), failing the delivery rather than sending it again once
 * that was the last one `attemptLimit` (or the digest's window) allows.
 * Rows come in the order they were enqueued, the order they are sent in:
 * an UPDATE's rows come in no set order.
 */
export async function claimDueDeliveries(
  sql: Queryable,
  options: { now: Date; leaseSeconds: number; limit: number; perLane: number; busyLanes: readonly string[]; attemptLimit: (kind: DeliveryKind) => number },
): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const kinds: DeliveryKind[] = ['mention', 'digest', 'event', 'test'];
  return sql<ClaimedDelivery[]>`
    /* claimDueDeliveries */
    with ranked as (
      select id, row_number() over (partition by ${laneOf(sql, 'deliveries')} order by next_attempt_at, created_at, id) as n
      from deliveries
      where status = 'pending' and next_attempt_at <= ${options.now}
        and ${laneOf(sql, 'deliveries')} <> all(${sql.array(options.busyLanes as string[])}::text[])
    ), due as (
      select d.id, d.channel_id, d.user_id, d.attempt_started_at as interrupted_at,
             d.attempt_started_at is not null
               and coalesce(d.give_up_at <= ${options.now}, d.attempts + 1 >= l.attempt_limit) as exhausted
      from deliveries d join ranked r on r.id = d.id
        join unnest(${sql.array(kinds)}::text[], ${sql.array(kinds.map(options.attemptLimit))}::int[]) as l(kind, attempt_limit) on l.kind = d.kind
      where r.n <= ${options.perLane} and d.status = 'pending' and d.next_attempt_at <= ${options.now}
      order by d.next_attempt_at, d.created_at, d.id
      limit ${options.limit}
      for update of d skip locked
    ), claimed as (
      update deliveries d set
        attempts = d.attempts + (due.interrupted_at is not null)::int,
        attempt_log = d.attempt_log || case when due.interrupted_at is null then '[]'::jsonb else jsonb_build_array(jsonb_build_object(
          'at', to_char(due.interrupted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'status', null, 'error', ${interruptedAttemptError}::text)) end,
        error = case when due.interrupted_at is null then d.error else ${interruptedAttemptError} end,
        status = case when due.exhausted then 'failed' else 'pending' end,
        attempt_started_at = case when due.exhausted then null else ${options.now}::timestamptz end,
        next_attempt_at = case when due.exhausted then ${options.now}::timestamptz
                               else ${options.now}::timestamptz + make_interval(secs => ${options.leaseSeconds}) end
      from due left join channels c on c.id = due.channel_id left join users u on u.id = due.user_id
      where d.id = due.id
      returning ${deliveryColumns(sql)}, ${laneOf(sql, 'd')} as lane, c.kind as channel_kind, c.url as channel_url,
                c.headers as channel_sealed_headers, c.secret as channel_sealed_secret, coalesce(c.target, '{}') as channel_target, u.email as user_email
    )
    select * from claimed where status = 'pending' order by created_at, id`;
}

/** A delivery's next state after an attempt: delivered, due again at `retryAt`, or failed for good. */
export type AttemptResult =
  | { status: 'delivered'; attempt: DeliveryAttempt }
  | { status: 'pending'; attempt: DeliveryAttempt; retryAt: Date }
  | { status: 'failed'; attempt: DeliveryAttempt };

export async function recordDeliveryAttempt(sql: Queryable, id: string, result: AttemptResult): Promise<DeliveryRow | undefined> {
  const { attempt } = result;
  const [row] = await sql<DeliveryRow[]>`
    /* recordDeliveryAttempt */
    update deliveries set
      status = ${result.status},
      attempts = attempts + 1,
      attempt_log = attempt_log || ${sql.json([attempt as never])},
      error = ${attempt.error},
      sent_at = ${result.status === 'delivered' ? attempt.at : null},
      attempt_started_at = null,
      next_attempt_at = ${result.status === 'pending' ? result.retryAt : attempt.at}
    where id = ${id} and status = 'pending'
    returning ${deliveryColumns(sql, 'deliveries')}`;
  return row;
}

/** Whether another channel of the same digest run (rule and period) has accepted its delivery. */
export async function digestRunDelivered(sql: Queryable, delivery: Pick<DeliveryRow, 'id' | 'alertId' | 'digestPeriod'>): Promise<boolean> {
  const [row] = await sql`
    /* digestRunDelivered */
    select 1 from deliveries
    where kind = 'digest' and alert_id = ${delivery.alertId} and digest_period = ${delivery.digestPeriod}
      and status = 'delivered' and id <> ${delivery.id}
    limit 1`;
  return row !== undefined;
}

/** A channel's deliveries, newest first, after a `(createdAt, id)` cursor. */
export async function listChannelDeliveries(
  sql: Queryable,
  channelId: string,
  page: { after: { createdAt: Date; id: string } | null; limit: number },
  only: { status?: DeliveryStatus; kinds?: readonly DeliveryKind[] } = {},
): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    /* listChannelDeliveries */
    select ${deliveryColumns(sql)} from deliveries d
    where d.channel_id = ${channelId}
      ${only.status ? sql`and d.status = ${only.status}` : sql``}
      ${only.kinds ? sql`and d.kind = any(${sql.array(only.kinds as DeliveryKind[])}::text[])` : sql``}
      ${page.after ? sql`and (d.created_at, d.id) < (${page.after.createdAt}, ${page.after.id})` : sql``}
    order by d.created_at desc, d.id desc
    limit ${page.limit}`;
}
