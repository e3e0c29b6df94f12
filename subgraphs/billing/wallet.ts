import 'reflect-metadata';
import { type GraphQLResolveInfo, Kind } from 'graphql';
import { Arg, Ctx, Directive, Field, FieldResolver, ID, Info, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, registerEnumType } from 'type-graphql';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { saveAutoRechargeSettings, startCardSetup } from './auto-recharge.ts';
import { TopUpStatus } from './top-up.ts';
import { loadWalletReport, loadWalletSummary, type WalletReport, type WalletSummary } from './wallet-report.ts';

export enum WalletStatus {
  funded = 'funded',
  low = 'low',
  paused = 'paused',
}
registerEnumType(WalletStatus, {
  name: 'WalletStatus',
  description: '`low`: the effective balance is at or under 20% of the last credit; `paused`: the wallet paused the keywords for balance',
});

export enum CreditSource {
  stripe = 'stripe',
  operator = 'operator',
}
registerEnumType(CreditSource, { name: 'CreditSource', description: 'A top-up paid through the payment provider, or an operator\'s credit' });

@ObjectType({ description: 'Cost at list price; each cents figure is its exact total rounded once (spec 2.1.4)' })
export class CostTotals {
  @Field(() => Int) keywordDays!: number;
  @Field(() => Int) keywordCents!: number;
  @Field(() => Int) billableMentions!: number;
  @Field(() => Int) mentionCents!: number;
  @Field(() => Int) billableComments!: number;
  @Field(() => Int) commentCents!: number;
  @Field(() => Int, { description: 'The sum of the three cents figures' }) totalCents!: number;
}

@ObjectType({ description: 'The $5.80 every workspace starts with, and the cap that comes with it (spec 2.1.1)' })
export class WelcomeCredit {
  @Field(() => Int) cents!: number;
  @Field(() => Boolean, { description: 'True until the first top-up' }) active!: boolean;
  @Field(() => Int, { description: 'Charged items a keyword may collect a month while it is active' }) capMentions!: number;
  @Field(() => String) capPer!: string;
}

@ObjectType({ description: 'The newest paid credit' })
export class LastTopUp {
  @Field(() => Int) amountCents!: number;
  @Field(() => Date) creditedAt!: Date;
  @Field(() => CreditSource) source!: CreditSource;
  @Field(() => ID, { nullable: true, description: 'The top-up order, for a Stripe top-up' }) orderId!: string | null;
}

@ObjectType({ description: 'What one top-up may add' })
export class TopUpBounds {
  @Field(() => Int) minCents!: number;
  @Field(() => Int) maxCents!: number;
}

export enum AutoRechargeState {
  off = 'off',
  needs_card = 'needs_card',
  ready = 'ready',
  charging = 'charging',
  failed = 'failed',
}
registerEnumType(AutoRechargeState, {
  name: 'AutoRechargeState',
  description:
    '`off`: not enabled; `needs_card`: enabled, no card saved yet; `ready`: recharges when the effective balance falls under the threshold (after a recharge that left it under, only once it has been back at the threshold or above); `charging`: a recharge is with Stripe; `failed`: the last recharge failed and none is tried again until a top-up, a new card or new settings',
});

@ObjectType({ description: 'The card auto-recharge charges, as its owner recognises it; its number stays with Stripe' })
export class SavedCard {
  @Field(() => String, { description: "Stripe's card brand, such as `visa`" }) brand!: string;
  @Field(() => String) last4!: string;
  @Field(() => Int) expMonth!: number;
  @Field(() => Int) expYear!: number;
  @Field(() => Date) savedAt!: Date;
}

@ObjectType({ description: 'The newest auto-recharge: a top-up order paid with the saved card' })
export class AutoRechargeAttempt {
  @Field(() => ID, { description: 'The top-up order (GET /v1/billing/top-ups/{id})' }) orderId!: string;
  @Field(() => TopUpStatus) status!: TopUpStatus;
  @Field(() => Int) amountCents!: number;
  @Field(() => String, { nullable: true, description: "Stripe's reason when it failed, such as `card_declined` or `authentication_required`" })
  failureCode!: string | null;
  @Field(() => String, { nullable: true }) failureMessage!: string | null;
  @Field(() => Date) attemptedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was credited or failed' }) settledAt!: Date | null;
}

@ObjectType({
  description:
    'Tops the wallet up with the saved card when the effective balance falls under the threshold: one recharge per fall under it (a recharge that leaves the balance under the threshold is not followed by another until a credit brings it back to the threshold or above), one try per credit, then none until a top-up, a new card or new settings',
})
export class AutoRecharge {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Int, { nullable: true, description: 'Recharge when the effective balance falls under this' }) thresholdCents!: number | null;
  @Field(() => Int, { nullable: true, description: 'How much to add' }) amountCents!: number | null;
  @Field(() => AutoRechargeState) state!: AutoRechargeState;
  @Field(() => SavedCard, { nullable: true, description: 'Null until a card is saved (startCardSetup)' }) card!: SavedCard | null;
  @Field(() => AutoRechargeAttempt, { nullable: true }) lastAttempt!: AutoRechargeAttempt | null;
}

@InputType()
export class CardSetupInput {
  @Field(() => String, { nullable: true }) successUrl?: string | null;
  @Field(() => String, { nullable: true }) cancelUrl?: string | null;
}

@ObjectType({ description: "Stripe's page where the user saves a card for auto-recharge" })
export class CardSetup {
  @Field(() => String) checkoutUrl!: string;
  @Field(() => Date, { nullable: true, description: 'When the page stops taking the card' }) expiresAt!: Date | null;
}

@ObjectType({ description: "The workspace's prepaid wallet (spec 2.11); money in integer USD cents, each figure rounded once" })
export class Wallet {
  @Field(() => WalletStatus) status!: WalletStatus;
  @Field(() => Int, { description: 'Credits minus charges' }) balanceCents!: number;
  @Field(() => Int, { description: "Charges due but not in the balance yet: today's keyword days before the daily tick charges them" })
  pendingCents!: number;
  @Field(() => Int, { description: 'Balance minus pending charges: what pausing and resuming go by' }) effectiveCents!: number;
  @Field(() => Int, { description: 'A day of every running keyword plus the average daily mention and comment spend of the last 7 days' })
  dailyBurnCents!: number;
  @Field(() => Int, { nullable: true, description: 'Whole days the effective balance lasts at the daily burn; null while nothing burns' })
  daysLeft!: number | null;
  @Field(() => Int, { description: 'What the next daily tick charges: a day of every running keyword' }) nextDayCents!: number;
  @Field(() => Int, { description: 'What a credit must add to resume the keywords paused for balance (a day of every keyword); 0 when none is' })
  resumeCostCents!: number;
  @Field(() => Int, { description: 'Running (unmuted) keywords, at their cap or not' }) activeKeywords!: number;
  @Field(() => Int, { description: 'Keywords the wallet paused for balance' }) pausedKeywords!: number;
  @Field(() => Int, { description: 'Running keywords at their cap (still charged a day)' }) cappedKeywords!: number;
  @Field(() => Int, { description: 'Keywords muted by a user or the noise brake' }) mutedKeywords!: number;
  @Field(() => Int, { description: 'The last credit (welcome, top-up or operator)' }) lastCreditCents!: number;
  @Field(() => Int, { description: 'wallet.low is sent once the effective balance is at or under this (20% of the last credit)' })
  lowBalanceCents!: number;
  @Field(() => Boolean) onWelcomeCredit!: boolean;
  @Field(() => WelcomeCredit) welcomeCredit!: WelcomeCredit;
  @Field(() => LastTopUp, { nullable: true }) lastTopUp!: LastTopUp | null;
  @Field(() => TopUpBounds) topUpBounds!: TopUpBounds;
  @Field(() => AutoRecharge) autoRecharge!: AutoRecharge;
  @Field(() => CostTotals, { description: "This calendar month's charges (UTC)" }) thisMonth!: CostTotals;
}

@InputType()
export class AutoRechargeInput {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Int, { nullable: true }) thresholdCents?: number | null;
  @Field(() => Int, { nullable: true }) amountCents?: number | null;
}

/** The wallet's fields a `WalletSummary` answers. */
type WalletSummaryFields = Omit<Wallet, 'lastTopUp' | 'autoRecharge' | 'thisMonth'>;

const toWalletSummary = (summary: WalletSummary): WalletSummaryFields => ({ ...summary, status: summary.status as WalletStatus });

const toWallet = (report: WalletReport): Wallet => ({
  ...toWalletSummary(report),
  autoRecharge: {
    ...report.autoRecharge,
    state: report.autoRecharge.state as AutoRechargeState,
    lastAttempt: report.autoRecharge.lastAttempt && { ...report.autoRecharge.lastAttempt, status: report.autoRecharge.lastAttempt.status as TopUpStatus },
  },
  lastTopUp: report.lastTopUp && { ...report.lastTopUp, source: report.lastTopUp.source as CreditSource },
  thisMonth: report.thisMonth,
});

const summaryFields = new Set<string>(['__typename', 'status', 'balanceCents', 'pendingCents', 'effectiveCents', 'dailyBurnCents', 'daysLeft', 'nextDayCents', 'resumeCostCents', 'activeKeywords', 'pausedKeywords', 'cappedKeywords', 'mutedKeywords', 'lastCreditCents', 'lowBalanceCents', 'onWelcomeCredit', 'welcomeCredit', 'topUpBounds'] satisfies (keyof WalletSummaryFields | '__typename')[]);

/**
 * Whether a `wallet` field asks only what its summary answers, its fields
 * named (as the gateway writes them: a fragment is read as asking for all).
 */
const asksOnlySummary = (info: GraphQLResolveInfo) =>
  info.fieldNodes.every((wallet) => wallet.selectionSet?.selections.every((field) => field.kind === Kind.FIELD && summaryFields.has(field.name.value)));

/** The wallet as asked: its summary alone when nothing more is asked (one statement rather than five, issue 18). */
async function walletAsAsked(ctx: SubgraphContext, workspaceId: string, info: GraphQLResolveInfo): Promise<Wallet | WalletSummaryFields> {
  return asksOnlySummary(info) ? toWalletSummary(await loadWalletSummary(ctx.sql, workspaceId, ctx.clock.now())) : toWallet(await loadWalletReport(ctx.sql, workspaceId, ctx.clock.now()));
}

/** The team subgraph's Workspace, extended here with its wallet. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Workspace {
  @Field(() => ID) id!: string;
}

@Resolver(() => Workspace)
export class WorkspaceWalletResolver {
  @FieldResolver(() => Wallet)
  async wallet(@Root() workspace: Workspace, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<Wallet | WalletSummaryFields> {
    requireAuth(ctx);
    return walletAsAsked(ctx, workspace.id, info);
  }
}

@Resolver(() => Wallet)
export class WalletResolver {
  @Query(() => Wallet, { description: "The caller's wallet" })
  async wallet(@Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<Wallet | WalletSummaryFields> {
    return walletAsAsked(ctx, requireAuth(ctx).workspaceId, info);
  }

  @Mutation(() => Wallet, {
    description: 'Stores the auto-recharge settings (a recharge that failed may then be tried again); recharges at once when already under the threshold; returns the wallet',
  })
  async updateAutoRecharge(@Arg('input', () => AutoRechargeInput) input: AutoRechargeInput, @Ctx() ctx: SubgraphContext): Promise<Wallet> {
    const { workspaceId } = requireAuth(ctx);
    await saveAutoRechargeSettings(ctx.sql, workspaceId, input, ctx.clock.now());
    return toWallet(await loadWalletReport(ctx.sql, workspaceId, ctx.clock.now()));
  }

  @Mutation(() => CardSetup, {
    description: "Starts saving a card for auto-recharge: open `checkoutUrl` (Stripe Checkout in setup mode); the card is saved when Stripe's webhook reports it",
  })
  async startCardSetup(@Arg('input', () => CardSetupInput) input: CardSetupInput, @Ctx() ctx: SubgraphContext): Promise<CardSetup> {
    return startCardSetup({ sql: ctx.sql, env: ctx.env, now: ctx.clock.now() }, requireAuth(ctx).workspaceId, input);
  }
}

export function resolveWorkspaceReference(ref: { id: string }, ctx: SubgraphContext): Workspace | null {
  return requireAuth(ctx).workspaceId === ref.id ? { id: ref.id } : null;
}
