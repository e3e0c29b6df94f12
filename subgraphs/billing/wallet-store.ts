import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

/** Welcome credit of every new workspace (spec part 8): $5.80. */
export const welcomeCreditCents = 580;
/** Ledger amounts are in fifteenths of a cent (see schema/004_billing.sql). */
export const fifteenthsPerCent = 15;

/** Opens the workspace's wallet with its welcome credit; a second call changes nothing. */
export async function openWallet(sql: Queryable, workspaceId: string): Promise<void> {
  await sql`
    /* openWallet */
    with wallet as (
      insert into wallets (workspace_id) values (${workspaceId}) on conflict do nothing returning workspace_id
    )
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key)
    select ${newId('led')}, workspace_id, 'welcome_credit', ${welcomeCreditCents * fifteenthsPerCent}, ${`welcome:${workspaceId}`}
    from wallet
    on conflict (idempotency_key) do nothing`;
}

/** The balance in whole cents: the ledger's exact sum, rounded once. */
export async function walletBalanceCents(sql: Queryable, workspaceId: string): Promise<number> {
  const [row] = await sql<{ balanceCents: string }[]>`
    /* walletBalanceCents */
    select round(coalesce(sum(amount_fifteenths), 0) / ${fifteenthsPerCent}::numeric) as balance_cents
    from ledger_entries where workspace_id = ${workspaceId}`;
  return Number(row.balanceCents);
}

/** Whether the workspace still runs on its welcome credit (no top-up yet). */
export async function isOnWelcomeCredit(sql: Queryable, workspaceId: string): Promise<boolean> {
  const [row] = await sql<{ onWelcomeCredit: boolean }[]>`
    /* isOnWelcomeCredit */
    select on_welcome_credit from wallets where workspace_id = ${workspaceId}`;
  return row?.onWelcomeCredit ?? true;
}

/** A keyword day: 500/30 cents, exactly, in fifteenths of a cent. */
export const keywordDayFifteenths = 250;

/**
 * Whether the balance covers one more day of every running keyword plus
 * `extraKeywords` about to run (spec 3.1: unmuting and noise resumes need it).
 */
export async function walletCoversAnotherDay(sql: Queryable, workspaceId: string, extraKeywords: number): Promise<boolean> {
  const [row] = await sql<{ covers: boolean }[]>`
    /* walletCoversAnotherDay */
    select coalesce((select sum(amount_fifteenths) from ledger_entries where workspace_id = ${workspaceId}), 0)
           >= ((select count(*) from keywords where workspace_id = ${workspaceId} and not muted) + ${extraKeywords})
              * ${keywordDayFifteenths} as covers`;
  return row.covers;
}
