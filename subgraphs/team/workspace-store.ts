import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  createdAt: Date;
}

export async function insertWorkspace(sql: Queryable, name: string): Promise<WorkspaceRow> {
  const [row] = await sql<WorkspaceRow[]>`
    /* insertWorkspace */
    insert into workspaces (id, name) values (${newId('org')}, ${name})
    returning id, name, created_at`;
  return row;
}

export async function findWorkspace(sql: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  const [row] = await sql<WorkspaceRow[]>`
    /* findWorkspace */
    select id, name, created_at from workspaces where id = ${id}`;
  return row;
}

export async function renameWorkspace(sql: Queryable, id: string, name: string): Promise<WorkspaceRow | undefined> {
  const [row] = await sql<WorkspaceRow[]>`
    /* renameWorkspace */
    update workspaces set name = ${name} where id = ${id}
    returning id, name, created_at`;
  return row;
}
