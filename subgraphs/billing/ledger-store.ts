import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { monthWindowsBack, timeBoundInText } from '../month-windows.ts';
import { chargedItemFifteenths, keywordDayFifteenths } from './prices.ts';

/**
 * The append-only ledger (schema/004_billing.sql, 005, 056): every charge and
 * credit is one row whose idempotency key names the thing charged or
 * credited, so the same thing can never be charged or credited twice. The
 * wallet's balance and the caps' counts follow from the rows (a trigger).
 * The ledger is partitioned by month, so the keys are kept in a table of
 * their own (`ledger_idempotency_keys`), written in the same statement as
 * the entries.
 */

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * A statement's CTEs `entry`, the entries `entries` selects (id,
 * workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key,
 * occurred_at), and `keyed`, the ids of those whose key this statement
 * wrote: a key held already, or twice in `entries`, is written once, `on
 * conflict do nothing`, so its thing is charged or credited once however
 * many workers charge it at once.
 */
export const keyedLedgerEntries = (sql: Queryable, entries: Fragment) => sql`
  entry as (${entries}),
  keyed as (
    insert into ledger_idempotency_keys (idempotency_key, entry_id, workspace_id)
    select idempotency_key, id, workspace_id from entry
    on conflict (idempotency_key) do nothing
    returning entry_id
  )`;

/** The insert of the entries whose key `keyedLedgerEntries` wrote. */
export const insertKeyedLedgerEntries = (sql: Queryable) => sql`
  insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at)
  select entry.id, entry.workspace_id, entry.kind, entry.keyword_id, entry.amount_fifteenths, entry.idempotency_key, entry.occurred_at
  from entry join keyed on keyed.entry_id = entry.id`;

/**
 * Makes the ledger's monthly partitions through the month after `now`
 * (migration 053's make_months), so a month's partition exists before its
 * first entry; a no-op once they exist.
 */
export async function makeLedgerMonths(sql: Queryable, now: Date): Promise<void> {
  await sql`
    /* makeLedgerMonths */
    select make_months('ledger_entries', ${now}::timestamptz + interval '1 month')`;
}

export type ChargedItemKind = 'mention' | 'comment';
export type CreditKind = 'top_up' | 'operator_credit';

export const itemChargeKey = (kind: ChargedItemKind, itemId: string) => `${kind}:${itemId}`;
export const keywordDayKey = (keywordId: string, day: string) => `keyword_day:${keywordId}:${day}`;
export const topUpCreditKey = (orderId: string) => `top_up:${orderId}`;

/** Of these idempotency keys, those the ledger already holds. */
export async function chargedKeys(sql: Queryable, idempotencyKeys: readonly string[]): Promise<Set<string>> {
  if (idempotencyKeys.length === 0) return new Set();
  // One probe of the unique index per key: a join let the planner hash the whole ledger for a batch of a few hundred keys.
  const rows = await sql<{ idempotencyKey: string }[]>`
    /* chargedKeys */
    select wanted.key as idempotency_key
    from unnest(${sql.array(idempotencyKeys as string[])}::text[]) as wanted(key)
    cross join lateral (select 1 from ledger_idempotency_keys k where k.idempotency_key = wanted.key) charged`;
  return new Set(rows.map((row) => row.idempotencyKey));
}

/**
 * Charges matched mentions and delivered comments in one statement (the
 * ledger's trigger then moves each wallet and each keyword-day count once);
 * an item charged before is skipped.
 */
export async function insertItemCharges(
  sql: Queryable,
  charges: readonly { workspaceId: string; keywordId: string; kind: ChargedItemKind; itemId: string; at: Date }[],
): Promise<void> {
  if (charges.length === 0) return;
  await sql`
    /* insertItemCharges */
    with ${keyedLedgerEntries(
      sql,
      sql`
        select id, workspace_id, kind, keyword_id, ${-chargedItemFifteenths}::bigint as amount_fifteenths, idempotency_key, occurred_at
        from unnest(${sql.array(charges.map(() => newId('led')))}::text[],
                    ${sql.array(charges.map((charge) => charge.workspaceId))}::text[],
                    ${sql.array(charges.map((charge) => charge.kind))}::text[],
                    ${sql.array(charges.map((charge) => charge.keywordId))}::text[],
                    ${sql.array(charges.map((charge) => itemChargeKey(charge.kind, charge.itemId)))}::text[],
                    ${sql.array(charges.map((charge) => charge.at.toISOString()))}::timestamptz[])
             as c(id, workspace_id, kind, keyword_id, idempotency_key, occurred_at)`,
    )}
    ${insertKeyedLedgerEntries(sql)}`;
}

/** Adds a credit; false when this idempotency key was credited before. */
export async function insertCredit(
  sql: Queryable,
  credit: { workspaceId: string; kind: CreditKind; fifteenths: number; idempotencyKey: string; at: Date },
): Promise<boolean> {
  const rows = await sql`
    /* insertCredit */
    with ${keyedLedgerEntries(
      sql,
      sql`
        select ${newId('led')}::text as id, ${credit.workspaceId}::text as workspace_id, ${credit.kind}::text as kind, null::text as keyword_id,
               ${credit.fifteenths}::bigint as amount_fifteenths, ${credit.idempotencyKey}::text as idempotency_key, ${credit.at}::timestamptz as occurred_at`,
    )}
    ${insertKeyedLedgerEntries(sql)}
    returning id`;
  return rows.length > 0;
}

/** Item charges (mentions and comments) of the workspace in [from, to), in fifteenths. */
export interface ItemCharges {
  mentions: number;
  comments: number;
  fifteenths: number;
}

/** The `ItemCharges` of the workspace in [from, to) as a subquery of one row. */
export const itemChargesBetweenSql = (sql: Queryable, workspaceId: string, from: Date, to: Date) => sql`
  select count(*) filter (where kind = 'mention')::int as mentions,
         count(*) filter (where kind = 'comment')::int as comments,
         coalesce(-sum(amount_fifteenths), 0)::float8 as fifteenths
  from ledger_entries
  where workspace_id = ${workspaceId} and kind in ('mention', 'comment') and occurred_at >= ${from} and occurred_at < ${to}`;

export async function itemChargesBetween(sql: Queryable, workspaceId: string, from: Date, to: Date): Promise<ItemCharges> {
  const [row] = await sql<ItemCharges[]>`
    /* itemChargesBetween */
    ${itemChargesBetweenSql(sql, workspaceId, from, to)}`;
  return row;
}

export interface DailyCharges {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  mentions: number;
  comments: number;
  /** Everything charged that day (keyword days, mentions, comments), in fifteenths. */
  fifteenths: number;
}

/** Charges of the workspace per UTC day in [from, to); days with none are absent. */
export async function chargesPerDay(sql: Queryable, workspaceId: string, from: Date, to: Date): Promise<DailyCharges[]> {
  return sql<DailyCharges[]>`
    /* chargesPerDay */
    select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           count(*) filter (where kind = 'mention')::int as mentions,
           count(*) filter (where kind = 'comment')::int as comments,
           (-sum(amount_fifteenths))::float8 as fifteenths
    from ledger_entries
    where workspace_id = ${workspaceId} and kind in ('keyword_day', 'mention', 'comment') and occurred_at >= ${from} and occurred_at < ${to}
    group by 1
    order by 1`;
}

export interface CreditEntry {
  kind: 'welcome_credit' | CreditKind;
  fifteenths: number;
  idempotencyKey: string;
  occurredAt: Date;
}

/**
 * The newest credit that was paid for (a top-up or an operator's credit),
 * if any. The ledger is partitioned by month (056) and a statement naming
 * no time is planned over every month on each call, so it reads this month
 * on, then the three before, the nine before those, then all older, month
 * bounds written into the text; a wallet never paid (still on its welcome
 * credit: a paid credit ends it in the same transaction) stops at the
 * first read.
 */
export async function newestPaidCredit(sql: Queryable, workspaceId: string, now: Date): Promise<CreditEntry | undefined> {
  for (const { since, before } of monthWindowsBack(now, null)) {
    const [{ paid, ...credit } = { paid: false }] = await sql<(Partial<CreditEntry> & { paid: boolean })[]>`
      /* newestPaidCredit */
      select not w.on_welcome_credit as paid, c.kind, c.fifteenths, c.idempotency_key, c.occurred_at
      from wallets w
      left join lateral (
        select l.kind, l.amount_fifteenths::float8 as fifteenths, l.idempotency_key, l.occurred_at
        from ledger_entries l
        where l.workspace_id = w.workspace_id and l.kind in ('top_up', 'operator_credit')
          ${timeBoundInText(sql, 'l.occurred_at', '>=', since)} ${timeBoundInText(sql, 'l.occurred_at', '<', before)}
        order by l.occurred_at desc, l.created_at desc
        limit 1
      ) c on true
      where w.workspace_id = ${workspaceId}`;
    if (!paid) return undefined;
    if (credit.kind) return credit as CreditEntry;
  }
  return undefined;
}

/** Wallets whose kept balance differs from their ledger's sum: empty unless something bypassed the ledger. */
export async function ledgerBalanceMismatches(sql: Queryable): Promise<{ workspaceId: string; kept: number; ledger: number }[]> {
  return sql<{ workspaceId: string; kept: number; ledger: number }[]>`
    /* ledgerBalanceMismatches */
    select w.workspace_id, w.balance_fifteenths::float8 as kept, coalesce(l.total, 0)::float8 as ledger
    from wallets w
    left join (select workspace_id, sum(amount_fifteenths) as total from ledger_entries group by workspace_id) l
      on l.workspace_id = w.workspace_id
    where w.balance_fifteenths <> coalesce(l.total, 0)`;
}
