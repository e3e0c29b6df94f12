import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { billingDayOf } from './billing-day.ts';
import { timeBoundInText } from '../month-windows.ts';
import { centsOf } from './prices.ts';

/** A keyword's cost in a calendar month at list price (spec 2.1.4 `cost`). */
export interface KeywordMonthCost {
  keywordDays: number;
  keywordCents: number;
  billableMentions: number;
  mentionCents: number;
  billableComments: number;
  commentCents: number;
  totalCents: number;
}

export const zeroCost: KeywordMonthCost = {
  keywordDays: 0, keywordCents: 0, billableMentions: 0, mentionCents: 0, billableComments: 0, commentCents: 0, totalCents: 0,
};

/** First instant of the month `YYYY-MM` and of the month after it, UTC. */
export function monthBounds(month: string): { from: Date; to: Date } {
  const [year, monthIndex] = month.split('-').map(Number);
  return { from: firstOfMonthUtc(year, monthIndex - 1), to: firstOfMonthUtc(year, monthIndex) };
}

/** `Date.UTC` reads the years 0 to 99 as 1900 to 1999; `setUTCFullYear` takes the year as written. */
function firstOfMonthUtc(year: number, monthIndex: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, 1);
  return date;
}

export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

export interface ChargeTotalRow {
  key: string;
  /** Null for a key with no charge of the month. */
  kind: 'keyword_day' | 'mention' | 'comment' | null;
  quantity: number;
  fifteenths: number;
}

/**
 * Exact totals per key and kind, each cents figure rounded once on its total
 * and `totalCents` their sum (2.1.4). Reads the rows of
 * `keywordMonthCostRowsSql` as they are, or as a statement's `json_agg`
 * gives them back (the same keys and numbers).
 */
export function monthCostsByKey(rows: readonly ChargeTotalRow[]): Map<string, KeywordMonthCost> {
  const costs = new Map<string, KeywordMonthCost>();
  for (const row of rows) {
    const cost = costs.get(row.key) ?? { ...zeroCost };
    const cents = centsOf(row.fifteenths);
    if (row.kind === 'keyword_day') Object.assign(cost, { keywordDays: row.quantity, keywordCents: cents });
    if (row.kind === 'mention') Object.assign(cost, { billableMentions: row.quantity, mentionCents: cents });
    if (row.kind === 'comment') Object.assign(cost, { billableComments: row.quantity, commentCents: cents });
    cost.totalCents = cost.keywordCents + cost.mentionCents + cost.commentCents;
    costs.set(row.key, cost);
  }
  return costs;
}

/**
 * Per keyword of `asked` (a subquery answering `id`), its charges of the
 * month from the ledger by kind, as a subquery (`key`, `kind`, `quantity`,
 * `fifteenths`), a row of no kind for a keyword charged nothing; the
 * statement that reads the keywords (their page) can hold it.
 */
export const keywordMonthCostRowsSql = (sql: Queryable, asked: postgres.Fragment, month: string) => {
  const { from, to } = monthBounds(month);
  // The ids as an array for the ledger's index (`= any`), then a row for each, charged or not.
  return sql`
    with asked as (${asked})
    select asked.id as key, c.kind, coalesce(c.quantity, 0) as quantity, coalesce(c.fifteenths, 0) as fifteenths
    from asked left join (
      select keyword_id, kind, count(*)::int as quantity, -sum(amount_fifteenths)::float8 as fifteenths
      from ledger_entries
      where keyword_id = any(array(select id from asked)) and kind in ('keyword_day', 'mention', 'comment')
        ${timeBoundInText(sql, 'occurred_at', '>=', from)} ${timeBoundInText(sql, 'occurred_at', '<', to)}
      group by keyword_id, kind
    ) c on c.keyword_id = asked.id`;
};

/**
 * Per keyword, the charges of the month from the ledger, a zero cost for
 * a keyword charged nothing. A keyword's `stats.cost` and its row of the
 * usage breakdown both come from here.
 */
export async function keywordMonthCosts(sql: Queryable, keywords: readonly string[], month: string): Promise<Map<string, KeywordMonthCost>> {
  return monthCostsByKey(
    await sql<ChargeTotalRow[]>`
      /* keywordMonthCosts */
      ${keywordMonthCostRowsSql(sql, sql`select unnest(${sql.array(keywords as string[])}::text[]) as id`, month)}`,
  );
}

/** The workspace's charges of the month as one cost, each figure rounded once on the workspace's total. */
export async function workspaceMonthCost(sql: Queryable, workspaceId: string, month: string): Promise<KeywordMonthCost> {
  const { from, to } = monthBounds(month);
  const costs = monthCostsByKey(
    await sql<ChargeTotalRow[]>`
      /* workspaceMonthCost */
      select workspace_id as key, kind, count(*)::int as quantity, -sum(amount_fifteenths)::float8 as fifteenths
      from ledger_entries
      where workspace_id = ${workspaceId} and kind in ('keyword_day', 'mention', 'comment')
        ${timeBoundInText(sql, 'occurred_at', '>=', from)} ${timeBoundInText(sql, 'occurred_at', '<', to)}
      group by workspace_id, kind`,
  );
  return costs.get(workspaceId) ?? { ...zeroCost };
}

/**
 * Charged items (matches and delivered comments) per keyword since each
 * keyword's period start, a UTC midnight (spec 2.1.1 `used`), from the same
 * per-day counts the charging check reads.
 */
export async function chargedItemsSince(sql: Queryable, since: ReadonlyMap<string, Date>): Promise<Map<string, number>> {
  if (since.size === 0) return new Map();
  const rows = await sql<{ keywordId: string; used: number }[]>`
    /* chargedItemsSince */
    select w.keyword_id, coalesce(sum(i.items), 0)::int as used
    from unnest(${sql.array([...since.keys()])}::text[], ${sql.array([...since.values()].map(billingDayOf))}::date[]) as w(keyword_id, since)
    left join keyword_charged_items i on i.keyword_id = w.keyword_id and i.day >= w.since
    group by w.keyword_id`;
  return new Map(rows.map((row) => [row.keywordId, row.used]));
}
