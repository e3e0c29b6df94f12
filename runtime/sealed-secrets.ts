import postgres from 'postgres';
import type { Queryable } from './database.ts';
import { isSealed, type SecretBox } from './secret-box.ts';

/** A column whose values are sealed (schema/045_sealed_secrets.sql), each owned by its row's `key`. */
export interface SealedColumn {
  table: string;
  column: string;
  /** The column naming the row's owner: part of every value's associated data (one per table). */
  key: string;
  /** The column's check constraint (migrations 045 and 048). */
  constraint: string;
}

/** The associated data a value of `column` in the row keyed `key` is sealed with: it opens in that place only. */
export const sealedOwner = (column: Pick<SealedColumn, 'table' | 'column'>, key: string): string => `${column.table}.${column.column}/${key}`;

/**
 * Seals the values written in clear before migrations 045 and 048, then
 * validates the constraints, after which nothing is left to do on later
 * starts. A row's clear columns are sealed in one update, since the row
 * written must pass every constraint of its table at once. Idempotent and
 * safe when several processes start at once: a row is rewritten only while
 * it still holds the clear values read.
 */
export async function sealStoredSecrets(sql: Queryable, box: SecretBox, columns: readonly SealedColumn[]): Promise<number> {
  let sealed = 0;
  const tables = new Map<string, SealedColumn[]>();
  for (const column of columns) tables.set(column.table, [...(tables.get(column.table) ?? []), column]);
  for (const sameTable of tables.values()) {
    const pending: SealedColumn[] = [];
    for (const column of sameTable) {
      const [state] = await sql<{ validated: boolean }[]>`
        /* sealedColumnValidated */
        select convalidated as validated from pg_constraint where conname = ${column.constraint}`;
      if (!state) throw new Error(`The sealing constraint ${column.constraint} is missing`);
      if (!state.validated) pending.push(column);
    }
    if (pending.length === 0) continue;
    const { table, key } = pending[0];
    const rows = await sql<Record<string, string | null>[]>`
      /* clearSecrets */
      select ${sql(key)} as row_key, ${sql(pending.map((column) => column.column))} from ${sql(table)}`;
    for (const row of rows) {
      const clear = pending.flatMap((column) => {
        const value = row[postgres.toCamel(column.column)];
        return value === null || isSealed(value) ? [] : [{ column, value }];
      });
      if (clear.length === 0) continue;
      const changes = Object.fromEntries(clear.map(({ column, value }) => [column.column, box.seal(value, sealedOwner(column, row.rowKey!))]));
      const unchanged = clear.reduce((condition, { column, value }) => sql`${condition} and ${sql(column.column)} = ${value}`, sql`${sql(key)} = ${row.rowKey}`);
      const result = await sql`
        /* sealClearSecrets */
        update ${sql(table)} set ${sql(changes)} where ${unchanged}`;
      sealed += result.count * clear.length;
    }
    for (const column of pending) {
      await sql`/* validateSealedColumn */ alter table ${sql(table)} validate constraint ${sql(column.constraint)}`;
    }
  }
  return sealed;
}
