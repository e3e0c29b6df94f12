import type { Queryable } from '../../runtime/database.ts';
import type { KeywordRef } from '../keywords/keyword-run-state-store.ts';
import { billingDayOf } from './billing-day.ts';
import { type CapPeriod, capPeriodStart } from './cap-period.ts';
import { welcomeCap } from './prices.ts';

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
    select k.id, k.workspace_id, k.term, k.kind, k.muted, k.paused_for_cap, c.cap_mentions, c.cap_per,
           (select coalesce(sum(i.items), 0) from keyword_charged_items i
            where i.keyword_id = k.id
              and i.day >= case c.cap_per when 'day' then ${startDay('day')}::date
                                          when 'week' then ${startDay('week')}::date
                                          else ${startDay('month')}::date end)::int as used,
           (select coalesce(sum(i.items), 0) from keyword_charged_items i
            where i.keyword_id = k.id and i.day >= ${startDay('month')}::date)::int as used_this_month
    from keywords k
    join wallets w on w.workspace_id = k.workspace_id
    cross join lateral (
      select case when w.on_welcome_credit then ${welcomeCap.mentions} else k.cap_mentions end as cap_mentions,
             case when w.on_welcome_credit then ${welcomeCap.per} else coalesce(k.cap_per, 'month') end as cap_per
    ) c
    where ${where}
    order by k.id
    ${options.lock ? sql`for no key update of k` : sql``}`;
}
