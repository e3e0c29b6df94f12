import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './database.ts';

const schemaDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema');
// Any constant works; it only has to be the same in every Earshot process.
const migrationLockKey = 7_301_946_112;

/**
 * Applies `schema/NNN_name.sql` files in order, each once. The advisory lock
 * makes two processes starting together take turns: the second finds the
 * work done. `through` stops after that file: a database as it stood before
 * a later migration, for the tests and benchmarks of what that one changes.
 */
export async function migrate(sql: Sql, options: { through?: string } = {}): Promise<string[]> {
  const { through } = options;
  const files = (await readdir(schemaDir))
    .filter((name) => /^\d{3}_[\w-]+\.sql$/.test(name) && (through === undefined || name <= through))
    .sort();
  return sql.begin(async (tx) => {
    await tx`/* lockMigrations */ select pg_advisory_xact_lock(${migrationLockKey})`;
    await tx`/* createMigrationsTable */ create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )`;
    const applied = new Set((await tx`/* listMigrations */ select version from schema_migrations`).map((row) => row.version as string));
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file)) continue;
      await tx.unsafe(await readFile(path.join(schemaDir, file), 'utf8'));
      await tx`/* recordMigration */ insert into schema_migrations (version) values (${file})`;
      ran.push(file);
    }
    return ran;
  });
}
