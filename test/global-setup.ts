import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDashboard } from '../dashboard/build.ts';
import { startJobQueue } from '../jobs/job-queue.ts';
import { jobDefinitions } from '../jobs/index.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect, startEmbeddedDatabase } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { createLogger } from '../runtime/logger.ts';
import { secretBox } from '../runtime/secret-box.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's embedded PostgreSQL; each test file makes its own database on it. */
    adminDatabaseUrl: string;
    /** A database with every migration and pg-boss's schema applied; test databases are copies of it. */
    templateDatabase: string;
  }
}

/** One embedded PostgreSQL for the whole run, durability off for speed. */
export default async function setup(project: TestProject) {
  // Once, before any test file starts a server: they all serve the same build.
  await buildDashboard();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'earshot-test-'));
  // The server runs as the postgres user, which must be able to reach its data directory.
  await chmod(dir, 0o755);
  const database = await startEmbeddedDatabase(dir, createLogger('warn'), { fast: true });
  project.provide('adminDatabaseUrl', database.url);
  project.provide('templateDatabase', await prepareTemplate(database.url));
  return async () => {
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * Migrating and installing pg-boss takes seconds; copying a prepared
 * database (CREATE DATABASE … TEMPLATE) takes milliseconds, so each test
 * file starts from a copy.
 */
async function prepareTemplate(adminUrl: string): Promise<string> {
  const name = 'earshot_template';
  const admin = connect(adminUrl, { max: 1 });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = connect(url.toString());
  await migrate(sql);
  const log = createLogger('warn');
  const queue = await startJobQueue({ sql, databaseUrl: url.toString(), definitions: jobDefinitions, clock: systemClock, log, config: { pollIntervalSeconds: 300, env: {} }, secrets: secretBox(randomBytes(32), 'a random key'), work: false });
  await queue.stop();
  await sql.end();
  return name;
}
