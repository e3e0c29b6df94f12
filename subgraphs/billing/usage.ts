import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { CostTotals } from './wallet.ts';
import { loadUsageBreakdown, loadUsageDays, loadUsageReport } from './wallet-report.ts';

@ObjectType({ description: 'The short form of the wallet with what the workspace used today (spec 4.4)' })
export class Usage {
  @Field(() => Int) balanceCents!: number;
  @Field(() => Int) effectiveCents!: number;
  @Field(() => Int) dailyBurnCents!: number;
  @Field(() => Int, { nullable: true }) daysLeft!: number | null;
  @Field(() => Int, { description: 'Running keywords' }) activeKeywords!: number;
  @Field(() => Int, { description: 'Keywords paused for balance' }) pausedKeywords!: number;
  @Field(() => Int, { description: 'Mentions matched and charged today (UTC)' }) matchesToday!: number;
  @Field(() => Int, { description: 'Thread comments delivered and charged today (UTC)' }) commentsToday!: number;
  @Field(() => Int, { description: 'Everything charged this calendar month' }) monthToDateCents!: number;
}

@ObjectType({ description: "One keyword's cost in the month; equal to its `stats.cost` for that month" })
export class UsageBreakdownRow extends CostTotals {
  @Field(() => ID) keywordId!: string;
  @Field(() => String, { nullable: true, description: 'Null once the keyword is deleted; its charges stay' }) term!: string | null;
  @Field(() => Boolean) deleted!: boolean;
}

@ObjectType({ description: 'Per-keyword cost rows of a calendar month (UTC)' })
export class UsageBreakdown {
  @Field(() => String, { description: 'YYYY-MM' }) month!: string;
  @Field(() => [UsageBreakdownRow]) keywords!: UsageBreakdownRow[];
  @Field(() => CostTotals, { description: 'The whole month, each figure rounded once on its own total' }) totals!: CostTotals;
}

@ObjectType({ description: 'What one UTC day cost and matched' })
export class UsageDay {
  @Field(() => String, { description: 'YYYY-MM-DD (UTC)' }) day!: string;
  @Field(() => Int, { description: 'Keyword days, mentions and comments charged that day, rounded once on the total' }) spentCents!: number;
  @Field(() => Int, { description: 'Mentions matched and charged that day' }) matches!: number;
  @Field(() => Int, { description: 'Thread comments delivered and charged that day' }) comments!: number;
}

@Resolver()
export class UsageResolver {
  @Query(() => [UsageDay], { description: 'Spend and matches per UTC day over the last `days` days, today included, oldest first (for charts)' })
  usageDays(@Arg('days', () => Int, { nullable: true, description: '1 to 90, default 30' }) days: number | null, @Ctx() ctx: SubgraphContext): Promise<UsageDay[]> {
    return loadUsageDays(ctx.sql, requireAuth(ctx).workspaceId, { days: days ?? 30 }, ctx.clock.now());
  }

  @Query(() => Usage, { description: 'Balance, burn, days left, keyword counts and what was charged today' })
  usage(@Ctx() ctx: SubgraphContext): Promise<Usage> {
    return loadUsageReport(ctx.sql, requireAuth(ctx).workspaceId, ctx.clock.now());
  }

  @Query(() => UsageBreakdown, { description: 'Per-keyword cost rows of a month (default: this month)' })
  usageBreakdown(@Arg('month', () => String, { nullable: true, description: 'YYYY-MM' }) month: string | null, @Ctx() ctx: SubgraphContext): Promise<UsageBreakdown> {
    return loadUsageBreakdown(ctx.sql, requireAuth(ctx).workspaceId, { month }, ctx.clock.now());
  }
}
