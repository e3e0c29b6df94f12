import 'reflect-metadata';
import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Queryable } from '../../runtime/database.ts';
import { notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { monthOf, workspaceMonthCost } from './keyword-cost-store.ts';
import { chargedItemFifteenths, keywordDayFifteenths } from './prices.ts';
import { effectiveFifteenths, type WalletState } from './wallet-figures.ts';
import { loadWalletState } from './wallet-state.ts';
import { findWallet } from './wallet-store.ts';

@ObjectType({ description: 'A count and what the wallet allows beside it' })
export class CompatAllowance {
  @Field(() => Int) count!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType({ description: "The prepaid wallet as the compatibility API's plan quota (spec 4.8)" })
export class CompatQuota {
  @Field(() => CompatAllowance, { description: 'Mentions charged this calendar month, and that count plus the mentions the effective balance still pays for' })
  mentions!: CompatAllowance;
  @Field(() => CompatAllowance, { description: 'Running keywords, and how many keywords the effective balance runs for another day' })
  keywords!: CompatAllowance;
}

/**
 * A prepaid wallet read as a plan's quota: its limits are what the
 * effective balance still pays for, so a keyword may be added exactly while
 * `keywords.count` is under `keywords.limit` (the rule of
 * `walletCoversAnotherDay`, spec 3.1).
 */
export function compatQuotaOf(state: WalletState, mentionsThisMonth: number): CompatQuota {
  const spendable = Math.max(0, effectiveFifteenths(state));
  return {
    mentions: { count: mentionsThisMonth, limit: mentionsThisMonth + Math.floor(spendable / chargedItemFifteenths) },
    keywords: { count: state.keywords.running, limit: Math.floor(spendable / keywordDayFifteenths) },
  };
}

async function loadCompatQuota(sql: Queryable, workspaceId: string, now: Date): Promise<CompatQuota> {
  const wallet = await findWallet(sql, workspaceId);
  if (!wallet) throw notFound('Wallet');
  const [state, month] = await Promise.all([loadWalletState(sql, wallet, now), workspaceMonthCost(sql, workspaceId, monthOf(now))]);
  return compatQuotaOf(state, month.billableMentions);
}

@Resolver()
export class CompatQuotaResolver {
  @Query(() => CompatQuota, { description: "The wallet as the compatibility API's plan quota" })
  compatQuota(@Ctx() ctx: SubgraphContext): Promise<CompatQuota> {
    return loadCompatQuota(ctx.sql, requireAuth(ctx).workspaceId, ctx.clock.now());
  }
}
