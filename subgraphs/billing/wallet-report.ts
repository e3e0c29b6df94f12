import { z } from 'zod';
import { onOneConnection, type Queryable } from '../../runtime/database.ts';
import { notFound } from '../domain-error.ts';
import { type AutoRechargeReport, autoRechargeReport, readAutoRechargeParts } from './auto-recharge.ts';
import { isStorableInstant } from '../storable-instant.ts';
import { parseInput } from '../validate-input.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import {
  type KeywordMonthCost,
  keywordMonthCosts,
  monthBounds,
  monthOf,
  workspaceMonthCost,
  zeroCost,
} from './keyword-cost-store.ts';
import { keywordsOfMonth } from './keyword-accounting-store.ts';
import { chargesPerDay, type CreditEntry, itemChargesBetween, newestPaidCredit } from './ledger-store.ts';
import { centsOf, topUpBounds, welcomeCap, welcomeCreditCents } from './prices.ts';
import { walletFigures, type WalletFigures } from './wallet-figures.ts';
import { walletStateOf } from './wallet-state.ts';
import { findWalletWithFigureParts, type WalletWithFigureParts } from './wallet-figure-parts-store.ts';
import { findWallet, type WalletRow } from './wallet-store.ts';

const day = 86_400_000;

/** What the wallet row and its figures tell: the wallet but for its last top-up, auto-recharge and month's cost. */
export interface WalletSummary extends WalletFigures {
  onWelcomeCredit: boolean;
  welcomeCredit: { cents: number; active: boolean; capMentions: number; capPer: 'month' };
  topUpBounds: { minCents: number; maxCents: number };
}

/** The wallet in full (spec 2.11, 4.4). */
export interface WalletReport extends WalletSummary {
  lastTopUp: { amountCents: number; creditedAt: Date; source: 'stripe' | 'operator'; orderId: string | null } | null;
  autoRecharge: AutoRechargeReport;
  thisMonth: KeywordMonthCost;
}

async function requireWallet(sql: Queryable, workspaceId: string): Promise<WalletRow> {
  const wallet = await findWallet(sql, workspaceId);
  if (!wallet) throw notFound('Wallet');
  return wallet;
}

const lastTopUpOf = (credit: CreditEntry | undefined): WalletReport['lastTopUp'] =>
  credit
    ? {
        amountCents: centsOf(credit.fifteenths),
        creditedAt: credit.occurredAt,
        source: credit.kind === 'top_up' ? 'stripe' : 'operator',
        orderId: credit.kind === 'top_up' ? credit.idempotencyKey.slice(credit.idempotencyKey.indexOf(':') + 1) : null,
      }
    : null;

/**
 * The wallet row and what its figures are computed from: its keywords by
 * run state, and its mention and comment charges over the last 7 whole UTC
 * days (the daily burn), in one statement. Started together with the
 * caller's other reads.
 */
function readWalletFigures(sql: Queryable, workspaceId: string, now: Date) {
  const today = startOfBillingDay(billingDayOf(now));
  return findWalletWithFigureParts(sql, workspaceId, today, new Date(today.getTime() - 7 * day), today);
}

function figuresOf(parts: WalletWithFigureParts | undefined, now: Date): { wallet: WalletRow; figures: WalletFigures } {
  if (!parts) throw notFound('Wallet');
  const { wallet, keywords, charges } = parts;
  return { wallet, figures: walletFigures(walletStateOf(wallet, new Map([[wallet.workspaceId, keywords]]), now), charges.fifteenths) };
}

function summaryOf(walletParts: WalletWithFigureParts | undefined, now: Date): { wallet: WalletRow; summary: WalletSummary } {
  const { wallet, figures } = figuresOf(walletParts, now);
  return {
    wallet,
    summary: {
      ...figures,
      onWelcomeCredit: wallet.onWelcomeCredit,
      welcomeCredit: { cents: welcomeCreditCents, active: wallet.onWelcomeCredit, capMentions: welcomeCap.mentions, capPer: welcomeCap.per },
      topUpBounds: { ...topUpBounds },
    },
  };
}

/** The wallet without its last top-up, auto-recharge and month's cost: one statement, where the whole report takes five. */
export async function loadWalletSummary(sql: Queryable, workspaceId: string, now: Date): Promise<WalletSummary> {
  return summaryOf(await readWalletFigures(sql, workspaceId, now), now).summary;
}

/** Every read of the report is started at once on one connection: one round trip (issue 18). */
export async function loadWalletReport(sql: Queryable, workspaceId: string, now: Date): Promise<WalletReport> {
  const [walletParts, credit, thisMonth, autoRechargeParts] = await onOneConnection(sql, (connection) =>
    Promise.all([
      readWalletFigures(connection, workspaceId, now),
      newestPaidCredit(connection, workspaceId, now),
      workspaceMonthCost(connection, workspaceId, monthOf(now)),
      readAutoRechargeParts(connection, workspaceId),
    ]),
  );
  const { wallet, summary } = summaryOf(walletParts, now);
  return { ...summary, lastTopUp: lastTopUpOf(credit), autoRecharge: autoRechargeReport(wallet, autoRechargeParts), thisMonth };
}

/** The short form of `GET /v1/usage`. */
export interface UsageReport {
  balanceCents: number;
  effectiveCents: number;
  dailyBurnCents: number;
  daysLeft: number | null;
  activeKeywords: number;
  pausedKeywords: number;
  matchesToday: number;
  commentsToday: number;
  monthToDateCents: number;
}

export async function loadUsageReport(sql: Queryable, workspaceId: string, now: Date): Promise<UsageReport> {
  const today = startOfBillingDay(billingDayOf(now));
  const [walletParts, charged, thisMonth] = await onOneConnection(sql, (connection) =>
    Promise.all([
      readWalletFigures(connection, workspaceId, now),
      itemChargesBetween(connection, workspaceId, today, new Date(today.getTime() + day)),
      workspaceMonthCost(connection, workspaceId, monthOf(now)),
    ]),
  );
  const { figures } = figuresOf(walletParts, now);
  return {
    balanceCents: figures.balanceCents,
    effectiveCents: figures.effectiveCents,
    dailyBurnCents: figures.dailyBurnCents,
    daysLeft: figures.daysLeft,
    activeKeywords: figures.activeKeywords,
    pausedKeywords: figures.pausedKeywords,
    matchesToday: charged.mentions,
    commentsToday: charged.comments,
    monthToDateCents: thisMonth.totalCents,
  };
}

export interface UsageDay {
  day: string;
  spentCents: number;
  matches: number;
  comments: number;
}

export const usageDaysInput = z.object({ days: z.number().int().min(1, 'must be 1 to 90').max(90, 'must be 1 to 90') });

/** Spend and charged matches per UTC day over the last `days` days, today included, oldest first; every day listed. */
export async function loadUsageDays(sql: Queryable, workspaceId: string, input: { days: number }, now: Date): Promise<UsageDay[]> {
  const { days } = parseInput(usageDaysInput, input);
  await requireWallet(sql, workspaceId);
  const today = startOfBillingDay(billingDayOf(now));
  const from = new Date(today.getTime() - (days - 1) * day);
  const charged = new Map((await chargesPerDay(sql, workspaceId, from, new Date(today.getTime() + day))).map((row) => [row.day, row]));
  return Array.from({ length: days }, (_, index) => {
    const date = billingDayOf(new Date(from.getTime() + index * day));
    const row = charged.get(date);
    return { day: date, spentCents: row ? centsOf(row.fifteenths) : 0, matches: row?.mentions ?? 0, comments: row?.comments ?? 0 };
  });
}

export interface UsageBreakdownRow extends KeywordMonthCost {
  keywordId: string;
  /** Null once the keyword is deleted; its charges stay. */
  term: string | null;
  deleted: boolean;
}

export interface UsageBreakdown {
  month: string;
  keywords: UsageBreakdownRow[];
  /** The workspace's month, each cents figure rounded once on its own total (so it may differ by a cent from the sum of the rows). */
  totals: KeywordMonthCost;
}

/** A month whose first instant and the next month's PostgreSQL can both store: 0001-01 to 9999-11. */
const isStorableMonth = (month: string) => Object.values(monthBounds(month)).every(isStorableInstant);

export const usageBreakdownInput = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM')
    .refine(isStorableMonth, 'must be a month from 0001-01 to 9999-11')
    .nullish(),
});

/**
 * Per keyword, the month's cost: every keyword of the workspace that existed
 * before the month ended, and every deleted one charged in it. Each row
 * equals that keyword's `stats.cost` for the same month (same function).
 */
export async function loadUsageBreakdown(sql: Queryable, workspaceId: string, rawInput: unknown, now: Date): Promise<UsageBreakdown> {
  const month = parseInput(usageBreakdownInput, rawInput).month ?? monthOf(now);
  const keywords = await keywordsOfMonth(sql, workspaceId, month);
  const costs = await keywordMonthCosts(sql, keywords.map((keyword) => keyword.keywordId), month);
  return {
    month,
    keywords: keywords.map(({ keywordId, term }) => ({ keywordId, term, deleted: term === null, ...(costs.get(keywordId) ?? zeroCost) })),
    totals: await workspaceMonthCost(sql, workspaceId, month),
  };
}
