import type { Sql } from '../../runtime/database.ts';
import { openWallet } from '../billing/index.ts';
import { ensureDefaultGroup } from '../keywords/index.ts';
import { insertApiKey } from './api-key-store.ts';
import { insertWorkspace, type WorkspaceRow } from './workspace-store.ts';

export interface ProvisionedWorkspace {
  workspace: Pick<WorkspaceRow, 'id' | 'name'>;
  apiKey: string;
}

/**
 * A new workspace with everything it starts with: its wallet and welcome
 * credit (billing), its default keyword group and a first write key, all or
 * nothing.
 */
export async function provisionWorkspace(sql: Sql, name: string): Promise<ProvisionedWorkspace> {
  return sql.begin(async (tx) => {
    const workspace = await insertWorkspace(tx, name);
    await openWallet(tx, workspace.id);
    await ensureDefaultGroup(tx, workspace.id);
    const key = await insertApiKey(tx, { workspaceId: workspace.id, name: 'First key', scope: 'write', expiresAt: null });
    return { workspace: { id: workspace.id, name: workspace.name }, apiKey: key.key };
  }) as Promise<ProvisionedWorkspace>;
}
