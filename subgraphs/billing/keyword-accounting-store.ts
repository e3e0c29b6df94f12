import type { Queryable } from '../../runtime/database.ts';
import type { KeywordKind } from '../../vocabulary/keyword-kinds.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import { type CapPeriod, capPeriodStart } from './cap-period.ts';
import { monthBounds } from './keyword-cost-store.ts';
import { insertKeyedLedgerEntries, keyedLedgerEntries } from './ledger-store.ts';
import { keywordDayFifteenths, welcomeCap } from './prices.ts';
import { lockWallet } from './wallet-store.ts';

/**
 * Keyword accounting: the one module whose SQL billing shares with the
 * keywords subgraph's table. The keywords subgraph owns `keywords`; the
 * wallet, the caps and the daily tick need its run state (`muted`,
 * `paused_for_balance`, `paused_for_cap`) and which keywords a day or a
 * month charges, read and written in the same statements and under the same
 * locks as the ledger (spec 3.1, 3.2). Billing owns this module; nothing
 * else in billing reads `keywords`, and the keywords subgraph reaches these
 * functions only through billing's index. Set-based, because the daily tick
 * pauses the keywords of thousands of workspaces in one statement; manual
 * mute and unmute stay with the keyword PATCH, the noise brake with the
 * keywords subgraph.
 */

/** What an account event says about a keyword (spec 6.4 `keyword`). */
export interface KeywordRef {
  id: string;
  workspaceId: string;
  term: string;
  kind: KeywordKind;
}

/** A workspace's keywords by run state, for the wallet's figures and decisions. */
export interface KeywordRunCounts {
  /** Unmuted: polled, matched (unless at cap) and charged a day by each tick. */
  running: number;
  /** Running and created before `dueBefore`: what a tick for that day charges. */
  due: number;
  /** Running but at their cap. */
  capped: number;
  pausedForBalance: number;
  /** Paused for balance and for nothing else: a credit that covers them resumes them. */
  resumable: number;
  /** Muted by a user or by the noise brake (not by the wallet). */
  muted: number;
}

export const noKeywords: KeywordRunCounts = { running: 0, due: 0, capped: 0, pausedForBalance: 0, resumable: 0, muted: 0 };

/** The `KeywordRunCounts` columns, counted over the `keywords` rows a statement reads. */
export const keywordRunCountColumns = (sql: Queryable, dueBefore: Date) => sql`
  count(*) filter (where not muted)::int as running,
  count(*) filter (where not muted and created_at < ${dueBefore})::int as due,
  count(*) filter (where not muted and paused_for_cap)::int as capped,
  count(*) filter (where paused_for_balance)::int as paused_for_balance,
  count(*) filter (where paused_for_balance and not paused_for_noise)::int as resumable,
  count(*) filter (where muted and not paused_for_balance)::int as muted`;

export async function countKeywordRunStates(
  sql: Queryable,
  workspaceIds: readonly string[],
  dueBefore: Date,
): Promise<Map<string, KeywordRunCounts>> {
  const rows = await sql<({ workspaceId: string } & KeywordRunCounts)[]>`
    /* countKeywordRunStates */
    select workspace_id, ${keywordRunCountColumns(sql, dueBefore)}
    from keywords
    where workspace_id = any(${sql.array(workspaceIds as string[])})
    group by workspace_id`;
  return new Map(rows.map(({ workspaceId, ...counts }) => [workspaceId, counts]));
}

/** Mutes every running keyword of these workspaces for lack of balance (3.2: all pause together), oldest first, the order their events go out in: ids drawn in one millisecond are ordered by chance. */
export async function pauseRunningKeywordsForBalance(sql: Queryable, workspaceIds: readonly string[]): Promise<KeywordRef[]> {
  if (workspaceIds.length === 0) return [];
  return sql<KeywordRef[]>`
    /* pauseRunningKeywordsForBalance */
    with paused as (
      update keywords set muted = true, paused_for_balance = true, updated_at = now()
      where workspace_id = any(${sql.array(workspaceIds as string[])}) and not muted
      returning id, workspace_id, term, kind, created_at
    )
    select id, workspace_id, term, kind from paused order by workspace_id, created_at, id`;
}

/**
 * Lifts the wallet's pause from every keyword of the workspace; a keyword
 * also paused by the noise brake stays muted (a top-up does not resume it,
 * 3.1). Returns the keywords that listen again.
 */
export async function resumeKeywordsPausedForBalance(sql: Queryable, workspaceId: string): Promise<KeywordRef[]> {
  return sql<KeywordRef[]>`
    /* resumeKeywordsPausedForBalance */
    with lifted as (
      update keywords set paused_for_balance = false, muted = paused_for_noise, updated_at = now()
      where workspace_id = ${workspaceId} and paused_for_balance
      returning id, workspace_id, term, kind, muted
    )
    select id, workspace_id, term, kind from lifted where not muted order by id`;
}

/** Sets or clears `pausedForCap`; returns the keywords whose flag changed. */
export async function setPausedForCap(sql: Queryable, keywordIds: readonly string[], paused: boolean): Promise<(KeywordRef & { muted: boolean })[]> {
  if (keywordIds.length === 0) return [];
  return sql<(KeywordRef & { muted: boolean })[]>`
    /* setPausedForCap */
    update keywords set paused_for_cap = ${paused}, updated_at = now()
    where id = any(${sql.array(keywordIds as string[])}) and paused_for_cap <> ${paused}
    returning id, workspace_id, term, kind, muted`;
}

/** A keyword's cap as it applies now (spec 2.1.1) and what it has used. */
export interface KeywordCapState extends KeywordRef {
  muted: boolean;
  pausedForCap: boolean;
  /** The welcome cap while the workspace runs on its welcome credit, else the user's own; null for none. */
  capMentions: number | null;
  capPer: CapPeriod;
  /** Charged items (matched mentions plus delivered comments) in the current period of that cap. */
  used: number;
  /** Charged items this calendar month (the `thisMonth` of keyword.capped). */
  usedThisMonth: number;
}

export type CapStateFilter = { keywordIds: readonly string[] } | { workspaceId: string } | { pausedForCap: true };

/**
 * Cap states of the keywords the filter names, in id order, read from the
 * per-day counts the ledger keeps. `lock` locks the keyword rows in that
 * order (charging checks and charges under that lock, so two workers cannot
 * both take the last item). It leaves key-share locks alone: storing a
 * mention key-share-locks its keyword, and with FOR UPDATE two workers that
 * both stored mentions of a keyword would wait for each other, one for the
 * wallet and the other for the keyword.
 */
export async function keywordCapStates(sql: Queryable, filter: CapStateFilter, now: Date, options: { lock?: boolean } = {}): Promise<KeywordCapState[]> {
  const startDay = (per: CapPeriod) => billingDayOf(capPeriodStart(per, now));
  const where =
    'keywordIds' in filter
      ? sql`k.id = any(${sql.array(filter.keywordIds as string[])})`
      : 'workspaceId' in filter
        ? sql`k.workspace_id = ${filter.workspaceId}`
        : sql`k.paused_for_cap`;
  return sql<KeywordCapState[]>`
    /* keywordCapStates */
    select k.id, k.workspace_id, k.term, k.kind, k.muted, k.paused_for_cap, c.cap_mentions, c.cap_per, u.used, u.used_this_month
    from keywords k
    join wallets w on w.workspace_id = k.workspace_id
    cross join lateral (
      select case when w.on_welcome_credit then ${welcomeCap.mentions} else k.cap_mentions end as cap_mentions,
             case when w.on_welcome_credit then ${welcomeCap.per} else coalesce(k.cap_per, 'month') end as cap_per
    ) c
    cross join lateral (
      select case c.cap_per when 'day' then ${startDay('day')}::date when 'week' then ${startDay('week')}::date else ${startDay('month')}::date end as day
    ) period
    -- One range of the keyword's days serves both sums (a week may begin in the month before).
    cross join lateral (
      select coalesce(sum(i.items) filter (where i.day >= period.day), 0)::int as used,
             coalesce(sum(i.items) filter (where i.day >= ${startDay('month')}::date), 0)::int as used_this_month
      from keyword_charged_items i
      where i.keyword_id = k.id and i.day >= least(period.day, ${startDay('month')}::date)
    ) u
    where ${where}
    order by k.id
    ${options.lock ? sql`for no key update of k` : sql``}`;
}

/**
 * The keywords a month's breakdown lists: every keyword of the workspace
 * created before the month ended, and every deleted one charged in it (its
 * term is then null).
 */
export async function keywordsOfMonth(sql: Queryable, workspaceId: string, month: string): Promise<{ keywordId: string; term: string | null }[]> {
  const { from, to } = monthBounds(month);
  return sql<{ keywordId: string; term: string | null }[]>`
    /* keywordsOfMonth */
    select coalesce(k.id, c.keyword_id) as keyword_id, k.term
    from (select id, term from keywords where workspace_id = ${workspaceId} and created_at < ${to}) k
    full join (
      select distinct keyword_id from ledger_entries
      where workspace_id = ${workspaceId} and keyword_id is not null and occurred_at >= ${from} and occurred_at < ${to}
    ) c on c.keyword_id = k.id
    order by 1`;
}

/**
 * Charges `day` (`YYYY-MM-DD`) to every running keyword of these workspaces
 * created before that day began, in one statement; a keyword-day charged
 * before is skipped. Returns the keyword-days charged per workspace.
 */
export async function insertKeywordDayCharges(sql: Queryable, workspaceIds: readonly string[], day: string): Promise<Map<string, number>> {
  if (workspaceIds.length === 0) return new Map();
  const dayStart = `${day}T00:00:00Z`;
  const rows = await sql<{ workspaceId: string; charged: number }[]>`
    /* insertKeywordDayCharges */
    with ${keyedLedgerEntries(
      sql,
      sql`
        select 'led_' || replace(gen_random_uuid()::text, '-', '') as id, k.workspace_id, 'keyword_day' as kind, k.id as keyword_id,
               ${-keywordDayFifteenths}::bigint as amount_fifteenths, 'keyword_day:' || k.id || ':' || ${day} as idempotency_key,
               ${dayStart}::timestamptz as occurred_at
        from keywords k
        where k.workspace_id = any(${sql.array(workspaceIds as string[])}) and not k.muted and k.created_at < ${dayStart}::timestamptz`,
    )}, charged as (
      ${insertKeyedLedgerEntries(sql)}
      returning workspace_id
    )
    select workspace_id, count(*)::int as charged from charged group by workspace_id`;
  return new Map(rows.map((row) => [row.workspaceId, row.charged]));
}

/**
 * Whether the effective balance covers one more day of every running keyword
 * plus `extraKeywords` about to run (spec 3.1: unmuting and noise resumes
 * need it). Keyword days the tick has not yet charged today are pending and
 * do not count as balance. In a transaction the wallet stays locked, taken
 * in a statement of its own: keywords started or resumed at once then count
 * one after the other, each seeing the ones before it, where one statement
 * would count from a snapshot taken before it waited. A caller holding a
 * keyword row locks the wallet before it (`lockWallet`), the order money
 * moves in.
 */
export async function walletCoversAnotherDay(sql: Queryable, workspaceId: string, extraKeywords: number, now: Date): Promise<boolean> {
  await lockWallet(sql, workspaceId);
  const today = billingDayOf(now);
  const todayStart = startOfBillingDay(today);
  const [row] = await sql<{ covers: boolean }[]>`
    /* walletCoversAnotherDay */
    select w.balance_fifteenths
             - case when w.settled_through >= ${today}::date then 0 else k.due end * ${keywordDayFifteenths}
           >= (k.running + ${extraKeywords}) * ${keywordDayFifteenths} as covers
    from wallets w,
         lateral (select count(*) filter (where not muted) as running,
                         count(*) filter (where not muted and created_at < ${todayStart}) as due
                  from keywords where workspace_id = w.workspace_id) k
    where w.workspace_id = ${workspaceId}`;
  return row?.covers ?? false;
}
