import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { CostTotals } from './wallet.ts';
import { loadUsageBreakdown, loadUsageReport } from './wallet-report.ts';

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

@Resolver()
export class UsageResolver {
  @Query(() => Usage, { description: 'Balance, burn, days left, keyword counts and what was charged today' })
  usage(@Ctx() ctx: SubgraphContext): Promise<Usage> {
    return loadUsageReport(ctx.sql, requireAuth(ctx).workspaceId, ctx.clock.now());
  }

  @Query(() => UsageBreakdown, { description: 'Per-keyword cost rows of a month (default: this month)' })
  usageBreakdown(@Arg('month', () => String, { nullable: true, description: 'YYYY-MM' }) month: string | null, @Ctx() ctx: SubgraphContext): Promise<UsageBreakdown> {
    return loadUsageBreakdown(ctx.sql, requireAuth(ctx).workspaceId, { month }, ctx.clock.now());
  }
}
