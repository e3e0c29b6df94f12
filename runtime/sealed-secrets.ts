import type { Queryable } from './database.ts';
import { isSealed, type SecretBox } from './secret-box.ts';

/** A column whose values are sealed (schema/045_sealed_secrets.sql), each owned by its row's `key`. */
export interface SealedColumn {
  table: string;
  column: string;
  /** The column naming the row's owner: part of every value's associated data. */
  key: string;
  /** Migration 045's check constraint on the column. */
  constraint: string;
}

/** The associated data a value of `column` in the row keyed `key` is sealed with: it opens in that place only. */
export const sealedOwner = (column: Pick<SealedColumn, 'table' | 'column'>, key: string): string => `${column.table}.${column.column}/${key}`;

/**
 * Seals the values written in clear before migration 045, then validates
 * its constraint, after which nothing is left to do on later starts.
 * Idempotent and safe when several processes start at once: a row is
 * rewritten only while it still holds the clear value read.
 */
export async function sealStoredSecrets(sql: Queryable, box: SecretBox, columns: readonly SealedColumn[]): Promise<number> {
  let sealed = 0;
  for (const column of columns) {
    const [state] = await sql<{ validated: boolean }[]>`
      /* sealedColumnValidated */
      select convalidated as validated from pg_constraint where conname = ${column.constraint}`;
    if (!state) throw new Error(`Migration 045's constraint ${column.constraint} is missing`);
    if (state.validated) continue;
    const rows = await sql<{ key: string; value: string }[]>`
      /* clearSecrets */
      select ${sql(column.key)} as key, ${sql(column.column)} as value from ${sql(column.table)}
      where ${sql(column.column)} is not null`;
    for (const row of rows.filter((candidate) => !isSealed(candidate.value))) {
      const result = await sql`
        /* sealClearSecret */
        update ${sql(column.table)} set ${sql(column.column)} = ${box.seal(row.value, sealedOwner(column, row.key))}
        where ${sql(column.key)} = ${row.key} and ${sql(column.column)} = ${row.value}`;
      sealed += result.count;
    }
    await sql`/* validateSealedColumn */ alter table ${sql(column.table)} validate constraint ${sql(column.constraint)}`;
  }
  return sealed;
}
