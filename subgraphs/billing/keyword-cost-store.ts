import type { Queryable } from '../../runtime/database.ts';
import { fifteenthsPerCent } from './wallet-store.ts';

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
  return { from: new Date(Date.UTC(year, monthIndex - 1, 1)), to: new Date(Date.UTC(year, monthIndex, 1)) };
}

export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/**
 * Per keyword, the charges of the month from the ledger: each cents figure
 * is its exact total rounded once, and `totalCents` their sum (2.1.4).
 */
export async function keywordMonthCosts(sql: Queryable, keywordIds: readonly string[], month: string): Promise<Map<string, KeywordMonthCost>> {
  const { from, to } = monthBounds(month);
  const rows = await sql<{ keywordId: string; kind: string; quantity: number; fifteenths: string }[]>`
    /* keywordMonthCosts */
    select keyword_id, kind, count(*)::int as quantity, -sum(amount_fifteenths) as fifteenths
    from ledger_entries
    where keyword_id = any(${sql.array(keywordIds as string[])}) and kind in ('keyword_day', 'mention', 'comment')
      and occurred_at >= ${from} and occurred_at < ${to}
    group by keyword_id, kind`;
  const costs = new Map<string, KeywordMonthCost>();
  for (const row of rows) {
    const cost = costs.get(row.keywordId) ?? { ...zeroCost };
    const cents = Math.round(Number(row.fifteenths) / fifteenthsPerCent);
    if (row.kind === 'keyword_day') Object.assign(cost, { keywordDays: row.quantity, keywordCents: cents });
    if (row.kind === 'mention') Object.assign(cost, { billableMentions: row.quantity, mentionCents: cents });
    if (row.kind === 'comment') Object.assign(cost, { billableComments: row.quantity, commentCents: cents });
    cost.totalCents = cost.keywordCents + cost.mentionCents + cost.commentCents;
    costs.set(row.keywordId, cost);
  }
  return costs;
}

/** Charged items (matches and delivered comments) per keyword since each keyword's period start (spec 2.1.1 `used`). */
export async function chargedItemsSince(sql: Queryable, since: ReadonlyMap<string, Date>): Promise<Map<string, number>> {
  if (since.size === 0) return new Map();
  const rows = await sql<{ keywordId: string; used: number }[]>`
    /* chargedItemsSince */
    select w.keyword_id, count(l.id)::int as used
    from unnest(${sql.array([...since.keys()])}::text[], ${sql.array([...since.values()].map((d) => d.toISOString()))}::timestamptz[])
         as w(keyword_id, since)
    left join ledger_entries l on l.keyword_id = w.keyword_id and l.kind in ('mention', 'comment') and l.occurred_at >= w.since
    group by w.keyword_id`;
  return new Map(rows.map((row) => [row.keywordId, row.used]));
}
