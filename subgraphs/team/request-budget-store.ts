import type { Queryable } from '../../runtime/database.ts';

export interface RequestBudget {
  used: number;
  windowStart: Date;
}

/**
 * Counts one request against the workspace's current minute and returns the
 * count so far. The row lives in PostgreSQL so every process of a deployment
 * draws on the same budget; opening a new minute drops the workspace's older
 * ones.
 */
export async function countWorkspaceRequest(sql: Queryable, workspaceId: string): Promise<RequestBudget> {
  const [budget] = await sql<RequestBudget[]>`
    /* countWorkspaceRequest */
    insert into request_budgets (workspace_id, window_start, used)
    values (${workspaceId}, date_trunc('minute', now()), 1)
    on conflict (workspace_id, window_start) do update set used = request_budgets.used + 1
    returning used, window_start`;
  if (budget.used === 1) {
    await sql`
      /* dropOldRequestBudgets */
      delete from request_budgets where workspace_id = ${workspaceId} and window_start < ${budget.windowStart}`;
  }
  return budget;
}
