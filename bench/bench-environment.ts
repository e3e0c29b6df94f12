import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect, startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';

/** What every benchmark gets: one embedded PostgreSQL for the run, a fresh database per benchmark. */
export interface BenchEnvironment {
  log: Logger;
  createDatabase(): Promise<string>;
  /** The server's superuser connection string (for settings of one database, as `pg_stat_statements.track`). */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL under a temporary directory, with the durability
 * settings `npm start` uses, so the numbers are the ones a deployment on
 * this machine would see.
 */
export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const log = createLogger('warn');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'earshot-bench-'));
  // The server runs as the postgres user, which must be able to reach its data directory.
  await chmod(dir, 0o755);
  // pg_stat_statements is loaded but counts nothing until a benchmark turns it on for its own database (`pg_stat_statements.track`).
  const database = await startEmbeddedDatabase(dir, log, { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'none' } });
  return {
    log,
    adminUrl: database.url,
    async createDatabase() {
      const name = `bench_${randomBytes(6).toString('hex')}`;
      const admin = connect(database.url, { max: 1 });
      await admin.unsafe(`create database ${name}`);
      await admin.end();
      const url = new URL(database.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      await database.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
