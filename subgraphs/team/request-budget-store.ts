import type { Queryable } from '../../runtime/database.ts';

export interface RequestBudget {
  used: number;
  windowStart: Date;
}

/**
 * Counts `requests` requests (one by default) against the workspace's
 * current minute and returns the count so far, theirs included. The row
 * lives in PostgreSQL so every process of a deployment draws on the same
 * budget; opening a new minute drops the workspace's older ones.
 */
export async function countWorkspaceRequest(sql: Queryable, workspaceId: string, requests = 1): Promise<RequestBudget> {
  const [budget] = await sql<RequestBudget[]>`
    /* countWorkspaceRequest */
    insert into request_budgets (workspace_id, window_start, used)
    values (${workspaceId}, date_trunc('minute', now()), ${requests})
    on conflict (workspace_id, window_start) do update set used = request_budgets.used + excluded.used
    returning used, window_start`;
  if (budget.used === requests) {
    await sql`
      /* dropOldRequestBudgets */
      delete from request_budgets where workspace_id = ${workspaceId} and window_start < ${budget.windowStart}`;
  }
  return budget;
}
