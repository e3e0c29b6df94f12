import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

/** Welcome credit of every new workspace (spec part 8): $5.80. */
export const welcomeCreditCents = 580;

/** Opens the workspace's wallet with its welcome credit; a second call changes nothing. */
export async function openWallet(sql: Queryable, workspaceId: string): Promise<void> {
  await sql`
    /* openWallet */
    with wallet as (
      insert into wallets (workspace_id) values (${workspaceId}) on conflict do nothing returning workspace_id
    )
    insert into ledger_entries (id, workspace_id, kind, amount_cents, idempotency_key)
    select ${newId('led')}, workspace_id, 'welcome_credit', ${welcomeCreditCents}, ${`welcome:${workspaceId}`}
    from wallet
    on conflict (idempotency_key) do nothing`;
}

export async function walletBalanceCents(sql: Queryable, workspaceId: string): Promise<number> {
  const [row] = await sql<{ balanceCents: string }[]>`
    /* walletBalanceCents */
    select coalesce(sum(amount_cents), 0) as balance_cents from ledger_entries where workspace_id = ${workspaceId}`;
  return Number(row.balanceCents);
}
