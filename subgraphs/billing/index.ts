import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphQLSubgraph } from '../type-graphql-subgraph.ts';
import { CompatQuotaResolver } from './compat-quota.ts';
import { TopUpResolver } from './top-up.ts';
import { UsageResolver } from './usage.ts';
import { WalletResolver, Workspace, WorkspaceWalletResolver, resolveWorkspaceReference } from './wallet.ts';

/** The billing subgraph: wallet, top-ups, usage, keyword cost and caps accounting. */
export function buildBillingSchema(): Promise<GraphQLSchema> {
  return buildTypeGraphQLSubgraph({
    resolvers: [WalletResolver, WorkspaceWalletResolver, UsageResolver, TopUpResolver, CompatQuotaResolver],
    orphanedTypes: [Workspace],
    referenceResolvers: { Workspace: { __resolveReference: resolveWorkspaceReference } },
  });
}

// The domain functions other parts of Earshot use; nothing outside this folder imports its other files.
export { accountEventNames, listAccountEventsAfter } from './account-event-store.ts';
export { accountEventData } from './account-event-data.ts';
export { billingDayOf } from './billing-day.ts';
export { type TickedDay, runDailyTicksThrough, turnCapPeriodsThrough } from './billing-schedule.ts';
export { capPeriodStart, nextCapPeriodStart } from './cap-period.ts';
export { applyCapChange, resumeCapsAtPeriodTurn } from './cap-transitions.ts';
export { chargeMatchedItem, chargeMatchedItems, previewCharges } from './charging.ts';
export { creditWalletByOperator } from './credits.ts';
export { type DailyTickReport, chargeDailyKeywordFees } from './daily-tick.ts';
export { type ChargeTotalRow, type KeywordMonthCost, chargedItemsSince, keywordMonthCostRowsSql, keywordMonthCosts, monthCostsByKey, monthOf, workspaceMonthCost, zeroCost } from './keyword-cost-store.ts';
// The ledger's reads and charge, also timed by the partitions benchmark beside the table as it was.
export { chargedKeys, chargesPerDay, insertItemCharges, itemChargesBetween, makeLedgerMonths, newestPaidCredit } from './ledger-store.ts';
export { centsOf, chargedItemFifteenths, fifteenthsPerCent, keywordDayFifteenths, welcomeCap, welcomeCreditCents } from './prices.ts';
export { failOrphanedTopUps, topUpInput } from './top-up-checkout.ts';
export { usageBreakdownInput } from './wallet-report.ts';
export { isOnWelcomeCredit, lockWallet, openWallet, workspacesOnWelcomeCredit } from './wallet-store.ts';
export { type KeywordRef, walletCoversAnotherDay } from './keyword-accounting-store.ts';
export { autoRechargeInput, cardSetupInput, runDueAutoRecharges } from './auto-recharge.ts';
export { autoRechargesDueChannel } from './top-up-order-store.ts';
