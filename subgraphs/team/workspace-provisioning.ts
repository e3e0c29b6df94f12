import type { Sql } from '../../runtime/database.ts';
import { openWallet } from '../billing/index.ts';
import { ensureDefaultGroup } from '../keywords/index.ts';
import { insertApiKey } from './api-key-store.ts';
import { addMember } from './member-store.ts';
import { findOrCreateUser, type UserRow } from './user-store.ts';
import { insertWorkspace, type WorkspaceRow } from './workspace-store.ts';

export interface ProvisionedWorkspace {
  workspace: Pick<WorkspaceRow, 'id' | 'name'>;
  apiKey: string;
  /** Present when an owner was named. */
  owner?: Pick<UserRow, 'id' | 'email' | 'name'>;
}

/**
 * A new workspace with everything it starts with: its wallet and welcome
 * credit (billing), its default keyword group, a first write key and, when
 * an address is given, its owner (the existing user with that address, else
 * a new one), all or nothing.
 */
export async function provisionWorkspace(sql: Sql, name: string, options: { ownerEmail?: string } = {}): Promise<ProvisionedWorkspace> {
  return sql.begin(async (tx) => {
    const workspace = await insertWorkspace(tx, name);
    await openWallet(tx, workspace.id);
    await ensureDefaultGroup(tx, workspace.id);
    const key = await insertApiKey(tx, { workspaceId: workspace.id, name: 'First key', scope: 'write', expiresAt: null });
    const provisioned: ProvisionedWorkspace = { workspace: { id: workspace.id, name: workspace.name }, apiKey: key.key };
    if (options.ownerEmail) {
      const owner = await findOrCreateUser(tx, { email: options.ownerEmail });
      await addMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
      provisioned.owner = { id: owner.id, email: owner.email, name: owner.name };
    }
    return provisioned;
  }) as Promise<ProvisionedWorkspace>;
}
