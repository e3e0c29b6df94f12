import type { Sql } from '../runtime/database.ts';
import { eventually } from './harness.ts';

/** Tables the workers rewrite on their own schedule (when each platform was last polled, its last error), whoever calls. */
const backgroundState = new Set(['keyword_polls']);

/**
 * Every stored row of one workspace, read straight from PostgreSQL: the
 * workspace's own row, each table's rows with its `workspace_id`, and the rows
 * of tables that hang off those by a foreign key (a keyword's feeds, a
 * mention's comments, a grant's tokens). Found from the catalog, so a table a
 * migration adds is read too (the poll schedule aside). Two reads are equal when nothing of the
 * workspace was added, changed or lost in between.
 */
export async function workspaceRows(sql: Sql, workspaceId: string): Promise<Record<string, unknown[]>> {
  const direct = await sql<{ table: string }[]>`
    select table_name as "table" from information_schema.columns
    where table_schema = 'public' and column_name = 'workspace_id' order by table_name`;
  const owned = new Set(direct.map((row) => row.table).filter((table) => !backgroundState.has(table)));
  const hanging = await sql<{ table: string; column: string; parent: string; parentColumn: string }[]>`
    select child.relname as "table", child_column.attname as "column", parent.relname as parent, parent_column.attname as "parentColumn"
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    join pg_namespace n on n.oid = child.relnamespace and n.nspname = 'public'
    join pg_attribute child_column on child_column.attrelid = c.conrelid and child_column.attnum = c.conkey[1]
    join pg_attribute parent_column on parent_column.attrelid = c.confrelid and parent_column.attnum = c.confkey[1]
    where c.contype = 'f' and array_length(c.conkey, 1) = 1 and parent.relname <> 'workspaces'
    order by 1, 2`;
  const rows: Record<string, unknown[]> = {};
  const read = async (label: string, query: Promise<{ row: unknown }[]>) => {
    rows[label] = (await query).map(({ row }) => row);
  };
  await read('workspaces', sql`select to_jsonb(t) as row from workspaces t where id = ${workspaceId}`);
  for (const table of owned) {
    await read(table, sql`select to_jsonb(t) as row from ${sql(table)} t where workspace_id = ${workspaceId} order by to_jsonb(t)::text`);
  }
  for (const { table, column, parent, parentColumn } of hanging) {
    if (owned.has(table) || !owned.has(parent) || backgroundState.has(table)) continue;
    await read(
      `${table} by ${column}`,
      sql`select to_jsonb(t) as row from ${sql(table)} t
          where ${sql(column)} in (select ${sql(parentColumn)} from ${sql(parent)} where workspace_id = ${workspaceId})
          order by to_jsonb(t)::text`,
    );
  }
  return rows;
}

/** Waits until the job queue has nothing left to run now, so that background work no longer changes what a test compares. */
export async function jobsSettled(sql: Sql): Promise<void> {
  await eventually(
    () => sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()`,
    ([row]) => row.n === 0,
    60_000,
  );
}
