import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JobDefinition } from '../jobs/job-definition.ts';
import { startJobQueue } from '../jobs/job-queue.ts';
import { systemClock } from '../runtime/clock.ts';
import { isDatabaseUnavailable } from '../runtime/database-availability.ts';
import { connect } from '../runtime/database.ts';
import { createTestDatabase, eventually, recordingLogger, testSecrets } from './harness.ts';

/**
 * The database drivers meet a connection lost at the wrong moment (what
 * PostgreSQL's kill does to every connection at once). Two of them used to
 * end `npm start`: postgres.js wrote a transaction's own rollback to the
 * closed socket from an immediate (a TypeError no caller could catch), and
 * pg-boss completed a finished batch without a handler for the rejection.
 * Both are patched (patches/); these tests see each process survive them.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// What would have ended the process outside the test runner, or reached main.ts's last resort.
const uncaught: unknown[] = [];
const unhandled: unknown[] = [];
const recordUncaught = (error: unknown) => void uncaught.push(error);
const recordUnhandled = (error: unknown) => void unhandled.push(error);
beforeEach(() => {
  uncaught.length = 0;
  unhandled.length = 0;
  process.on('uncaughtExceptionMonitor', recordUncaught);
  process.on('unhandledRejection', recordUnhandled);
});
afterEach(() => {
  process.off('uncaughtExceptionMonitor', recordUncaught);
  process.off('unhandledRejection', recordUnhandled);
});

/** A TCP relay to the database that can be cut (connections dropped, new ones refused) as a killed server is. */
async function cuttableRelay(databaseUrl: string): Promise<{ url: string; cut(): Promise<void> }> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe('postgres.js when a transaction loses its connection mid-statement', () => {
  it('rejects the transaction, and the process and the pool go on', async () => {
    const url = await createTestDatabase();
    const sql = connect(url, { max: 1 });
    cleanups.push(() => sql.end({ timeout: 1 }));
    const killer = connect(url, { max: 1 });
    cleanups.push(() => killer.end({ timeout: 1 }));

    let backend: number | undefined;
    const transaction = sql.begin(async (tx) => {
      [{ pid: backend }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await tx`select pg_sleep(5)`;
    });
    while (backend === undefined) await sleep(20);
    await killer`select pg_terminate_backend(${backend})`;
    const lost = await transaction.then(
      () => undefined,
      (error: { code?: string }) => error.code,
    );
    expect(lost).toMatch(/^(57P01|CONNECTION_CLOSED)$/);

    // The rollback postgres.js writes after the failure went out on an immediate: let it run.
    await sleep(100);
    expect(uncaught).toEqual([]);
    // Under load the patched write's CONNECTION_CLOSED was once left unhandled; main.ts serves on
    // through such a rejection (isDatabaseUnavailable), so only another kind would end npm start.
    expect(unhandled.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
    // The pool's one connection opens afresh and answers.
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  });
});

describe('pg-boss when the database goes away while a batch runs', () => {
  it('logs the failed completion as a pg-boss error and the process goes on', async () => {
    const url = await createTestDatabase();
    const relay = await cuttableRelay(url);
    const sql = connect(url, { max: 2 });
    cleanups.push(() => sql.end({ timeout: 1 }));
    const { log, lines } = recordingLogger();

    let ran = false;
    // The batch ends as the database goes: pg-boss completes it on a connection that is refused.
    const lastJob: JobDefinition<{ n: number }> = {
      name: 'last-job',
      payload: z.object({ n: z.number() }),
      async handle() {
        ran = true;
        await relay.cut();
      },
    };
    const queue = await startJobQueue({
      sql,
      databaseUrl: relay.url,
      definitions: [lastJob],
      clock: systemClock,
      log,
      config: { pollIntervalSeconds: 300, env: {} },
      secrets: testSecrets,
      work: true,
    });
    cleanups.push(() => queue.stop());
    await queue.send('last-job', { n: 1 });

    await eventually(
      async () => lines.filter((line) => line.message === 'pg-boss error' && line.queue === 'last-job'),
      (errors) => ran && errors.length > 0,
      20_000,
    );
    await sleep(200);
    expect([...uncaught, ...unhandled]).toEqual([]);
  });
});
