import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { billingDayOf, startOfBillingDay } from './billing-day.ts';
import { insertKeyedLedgerEntries, keyedLedgerEntries, keywordDayKey } from './ledger-store.ts';
import { fifteenthsPerCent, keywordDayFifteenths, welcomeCreditCents } from './prices.ts';

/** A wallet row; amounts in fifteenths of a cent. */
export interface WalletRow {
  workspaceId: string;
  onWelcomeCredit: boolean;
  /** The ledger's exact sum (kept by the ledger's trigger). */
  balanceFifteenths: number;
  creditEpoch: number;
  lastCreditFifteenths: number;
  /** The credit epoch in which wallet.low was last recorded. */
  lowRecordedEpoch: number;
  /** Last UTC day (`YYYY-MM-DD`) the daily tick charged or paused this wallet; null before its first tick. */
  settledThrough: string | null;
  autoRechargeEnabled: boolean;
  autoRechargeThresholdCents: number | null;
  autoRechargeAmountCents: number | null;
  /** Stripe's customer for this workspace and the card saved to it (schema/029_auto_recharge.sql). */
  stripeCustomerId: string | null;
  stripePaymentMethodId: string | null;
  /** Bumped by each change the user makes to auto-recharge: a new try after a failed one. */
  autoRechargeRevision: number;
  /** An auto-recharge's credit left the effective balance under the threshold: none follows until a credit lifts it to the threshold (schema/070). */
  autoRechargeAwaitingRise: boolean;
  createdAt: Date;
}

// bigint columns come back as strings; float8 holds every balance exactly (< 2^53).
export const walletColumns = (sql: Queryable) => sql`
  workspace_id, on_welcome_credit, balance_fifteenths::float8 as balance_fifteenths, credit_epoch,
  last_credit_fifteenths::float8 as last_credit_fifteenths, low_recorded_epoch, settled_through::text as settled_through,
  auto_recharge_enabled, auto_recharge_threshold_cents, auto_recharge_amount_cents,
  stripe_customer_id, stripe_payment_method_id, auto_recharge_revision, auto_recharge_awaiting_rise, created_at`;

/** Opens the workspace's wallet with its welcome credit, the first credit epoch; a second call changes nothing. */
export async function openWallet(sql: Queryable, workspaceId: string): Promise<void> {
  const welcomeFifteenths = welcomeCreditCents * fifteenthsPerCent;
  await sql`
    /* openWallet */
    with wallet as (
      insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths)
      values (${workspaceId}, 1, ${welcomeFifteenths})
      on conflict do nothing
      returning workspace_id
    ), ${keyedLedgerEntries(
      sql,
      sql`
        select ${newId('led')}::text as id, workspace_id, 'welcome_credit' as kind, null::text as keyword_id, ${welcomeFifteenths}::bigint as amount_fifteenths,
               ${`welcome:${workspaceId}`}::text as idempotency_key, now() as occurred_at
        from wallet`,
    )}
    ${insertKeyedLedgerEntries(sql)}`;
}

export async function findWallet(sql: Queryable, workspaceId: string): Promise<WalletRow | undefined> {
  const [row] = await sql<WalletRow[]>`
    /* findWallet */
    select ${walletColumns(sql)} from wallets where workspace_id = ${workspaceId}`;
  return row;
}

/**
 * Locks the wallet row for the rest of the transaction. Everything that
 * moves money locks the wallet first and the keyword after, so charging,
 * crediting and the daily tick never deadlock one another.
 */
export async function lockWallet(sql: Queryable, workspaceId: string): Promise<WalletRow | undefined> {
  const [row] = await sql<WalletRow[]>`
    /* lockWallet */
    select ${walletColumns(sql)} from wallets where workspace_id = ${workspaceId} for update`;
  return row;
}

/**
 * These workspaces' wallets in workspace-id order; `lock` locks them, in
 * the order the daily tick locks them too: transactions locking overlapping
 * sets of wallets this way wait for one another but never deadlock.
 */
export async function findWallets(sql: Queryable, workspaceIds: readonly string[], options: { lock: boolean }): Promise<WalletRow[]> {
  if (workspaceIds.length === 0) return [];
  return sql<WalletRow[]>`
    /* findWallets */
    select ${walletColumns(sql)} from wallets
    where workspace_id = any(${sql.array(workspaceIds as string[])})
    order by workspace_id
    ${options.lock ? sql`for update` : sql``}`;
}

/**
 * Locks up to `limit` wallets the daily tick has not settled for `day`, in
 * workspace order. A second tick running at once waits here for the first's
 * rows and then finds them settled.
 */
export async function lockUnsettledWallets(sql: Queryable, day: string, limit: number): Promise<WalletRow[]> {
  return sql<WalletRow[]>`
    /* lockUnsettledWallets */
    select ${walletColumns(sql)} from wallets
    where settled_through is null or settled_through < ${day}::date
    order by workspace_id
    limit ${limit}
    for update`;
}

export async function anyUnsettledWallet(sql: Queryable, day: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    /* anyUnsettledWallet */
    select exists (select 1 from wallets where settled_through is null or settled_through < ${day}::date) as found`;
  return row.found;
}

/** Marks wallets settled for `day`; those in `lowRecorded` have had wallet.low recorded in their current epoch. */
export async function settleWallets(sql: Queryable, workspaceIds: readonly string[], day: string, lowRecorded: readonly string[]): Promise<void> {
  await sql`
    /* settleWallets */
    update wallets set
      settled_through = ${day}::date,
      low_recorded_epoch = case when workspace_id = any(${sql.array(lowRecorded as string[])}) then credit_epoch else low_recorded_epoch end
    where workspace_id = any(${sql.array(workspaceIds as string[])})`;
}

export async function markLowRecorded(sql: Queryable, workspaceId: string): Promise<void> {
  await sql`
    /* markLowRecorded */
    update wallets set low_recorded_epoch = credit_epoch where workspace_id = ${workspaceId}`;
}

/**
 * A credit opens a new epoch (wallet.low may be recorded again) and, when it
 * is paid for (a top-up or an operator's credit), ends the welcome credit.
 */
export async function openCreditEpoch(sql: Queryable, workspaceId: string, creditFifteenths: number): Promise<void> {
  await sql`
    /* openCreditEpoch */
    update wallets set credit_epoch = credit_epoch + 1, last_credit_fifteenths = ${creditFifteenths}, on_welcome_credit = false
    where workspace_id = ${workspaceId}`;
}

export async function isOnWelcomeCredit(sql: Queryable, workspaceId: string): Promise<boolean> {
  const [row] = await sql<{ onWelcomeCredit: boolean }[]>`
    /* isOnWelcomeCredit */
    select on_welcome_credit from wallets where workspace_id = ${workspaceId}`;
  return row?.onWelcomeCredit ?? true;
}

/** Of these workspaces, those still on their welcome credit (the noise brake applies only to them). */
export async function workspacesOnWelcomeCredit(sql: Queryable, workspaceIds: readonly string[]): Promise<Set<string>> {
  const rows = await sql<{ workspaceId: string }[]>`
    /* workspacesOnWelcomeCredit */
    select workspace_id from wallets where workspace_id = any(${sql.array(workspaceIds as string[])}) and on_welcome_credit`;
  return new Set(rows.map((row) => row.workspaceId));
}

/**
 * Charges a keyword for one UTC day (`YYYY-MM-DD`) at 500/30 cents; the
 * same keyword and day is charged once however often this runs.
 */
export async function chargeKeywordDay(sql: Queryable, workspaceId: string, keywordId: string, day: string): Promise<void> {
  await sql`
    /* chargeKeywordDay */
    with ${keyedLedgerEntries(
      sql,
      sql`
        select ${newId('led')}::text as id, ${workspaceId}::text as workspace_id, 'keyword_day' as kind, ${keywordId}::text as keyword_id,
               ${-keywordDayFifteenths}::bigint as amount_fifteenths, ${keywordDayKey(keywordId, day)}::text as idempotency_key,
               ${`${day}T00:00:00Z`}::timestamptz as occurred_at`,
    )}
    ${insertKeyedLedgerEntries(sql)}`;
}

export interface AutoRechargeSettings {
  enabled: boolean;
  thresholdCents: number | null;
  amountCents: number | null;
}

/** Stores the settings; a new revision, so a recharge that failed may be tried again, and one may follow a recharge that left the wallet under the threshold. */
export async function updateAutoRecharge(sql: Queryable, workspaceId: string, settings: AutoRechargeSettings): Promise<void> {
  await sql`
    /* updateAutoRecharge */
    update wallets set
      auto_recharge_enabled = ${settings.enabled},
      auto_recharge_threshold_cents = ${settings.thresholdCents},
      auto_recharge_amount_cents = ${settings.amountCents},
      auto_recharge_revision = auto_recharge_revision + 1,
      auto_recharge_awaiting_rise = false
    where workspace_id = ${workspaceId}`;
}

/** Keeps the workspace's Stripe customer; when one was kept already (a request racing this one), that one stays and is returned. */
export async function saveStripeCustomer(sql: Queryable, workspaceId: string, customerId: string): Promise<string> {
  const [row] = await sql<{ stripeCustomerId: string }[]>`
    /* saveStripeCustomer */
    update wallets set stripe_customer_id = coalesce(stripe_customer_id, ${customerId})
    where workspace_id = ${workspaceId}
    returning stripe_customer_id`;
  return row.stripeCustomerId;
}

/** The card auto-recharge charges, as the user recognises it; null before one is saved. */
export interface CardOnFile {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  savedAt: Date;
}

/**
 * Saves the card a setup session left for the workspace's customer; a card
 * other than the one saved is a new revision (a recharge that failed may be
 * tried again, and one may follow a recharge that left the wallet under the threshold). False when the workspace's customer is not that one.
 */
export async function saveCard(
  sql: Queryable,
  workspaceId: string,
  customerId: string,
  card: { paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number },
  at: Date,
): Promise<boolean> {
  const rows = await sql`
    /* saveCard */
    update wallets set
      auto_recharge_revision = auto_recharge_revision + (stripe_payment_method_id is distinct from ${card.paymentMethodId})::int,
      auto_recharge_awaiting_rise = auto_recharge_awaiting_rise and stripe_payment_method_id is not distinct from ${card.paymentMethodId},
      stripe_payment_method_id = ${card.paymentMethodId},
      card_brand = ${card.brand}, card_last4 = ${card.last4}, card_exp_month = ${card.expMonth}, card_exp_year = ${card.expYear},
      card_saved_at = case when stripe_payment_method_id is distinct from ${card.paymentMethodId} then ${at} else card_saved_at end
    where workspace_id = ${workspaceId} and stripe_customer_id = ${customerId}
    returning workspace_id`;
  return rows.length > 0;
}

/** Whether an auto-recharge waits for the balance to be back at its threshold before another may come due. */
export async function setAutoRechargeAwaitingRise(sql: Queryable, workspaceId: string, awaiting: boolean): Promise<void> {
  await sql`
    /* setAutoRechargeAwaitingRise */
    update wallets set auto_recharge_awaiting_rise = ${awaiting} where workspace_id = ${workspaceId}`;
}

export async function findCardOnFile(sql: Queryable, workspaceId: string): Promise<CardOnFile | null> {
  const [row] = await sql<CardOnFile[]>`
    /* findCardOnFile */
    select card_brand as brand, card_last4 as last4, card_exp_month as exp_month, card_exp_year as exp_year, card_saved_at as saved_at
    from wallets where workspace_id = ${workspaceId} and stripe_payment_method_id is not null`;
  return row ?? null;
}
