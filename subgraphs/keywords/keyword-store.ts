import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface KeywordRow {
  id: string;
  workspaceId: string;
  term: string;
  createdAt: Date;
}

export async function insertKeyword(sql: Queryable, input: { workspaceId: string; term: string }): Promise<KeywordRow> {
  const [row] = await sql<KeywordRow[]>`
    /* insertKeyword */
    insert into keywords (id, workspace_id, term) values (${newId('kw')}, ${input.workspaceId}, ${input.term})
    returning id, workspace_id, term, created_at`;
  return row;
}

export async function findKeyword(sql: Queryable, workspaceId: string, id: string): Promise<KeywordRow | undefined> {
  const [row] = await sql<KeywordRow[]>`
    /* findKeyword */
    select id, workspace_id, term, created_at from keywords where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}
