import { mkdtemp, rm } from 'node:fs/promises';
import { chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's embedded PostgreSQL; each test file makes its own database on it. */
    adminDatabaseUrl: string;
  }
}

/** One embedded PostgreSQL for the whole run, durability off for speed. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'earshot-test-'));
  // The server runs as the postgres user, which must be able to reach its data directory.
  await chmod(dir, 0o755);
  const database = await startEmbeddedDatabase(dir, createLogger('warn'), { fast: true });
  project.provide('adminDatabaseUrl', database.url);
  return async () => {
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
