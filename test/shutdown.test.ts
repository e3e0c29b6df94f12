import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serverProcesses } from '../runtime/postmaster.ts';
import { createServiceWorkspace, freezePostgres, isAlive, killStartedServices, npmStart, postmasterPid, serviceSettings } from './service-process.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(killStartedServices);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Load {
  /** Status of every answer, by status. */
  statuses: Map<number, number>;
  /** Requests that got no HTTP answer: refused or cut connections, once the server stopped taking them. */
  failures: number;
  stop(): Promise<void>;
}

/** Clients that keep asking, each on its own keep-alive connection, until stopped. */
function steadyLoad(url: string, authorization: string, clients: number): Load {
  const statuses = new Map<number, number>();
  let failures = 0;
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      try {
        const response = await fetch(url, { headers: { authorization } });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      } catch {
        failures++;
        // The server no longer takes connections: asking again at once would only spin.
        await sleep(20);
      }
    }
  });
  return {
    statuses,
    get failures() {
      return failures;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const serverErrors = (statuses: Map<number, number>) => [...statuses].filter(([status]) => status >= 500);

describe('stopping npm start', () => {
  it('on SIGTERM to its process group under load, drains with no 5xx and exits 0 within 10 s, PostgreSQL stopped', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    await service.ready;
    const { apiKey } = await createServiceWorkspace(dataDir);
    const postgres = (await postmasterPid(dataDir))!;

    const load = steadyLoad(`http://127.0.0.1:${port}/v1/whoami`, `Bearer ${apiKey}`, 8);
    await sleep(2_000);
    const answeredBefore = load.statuses.get(200) ?? 0;
    // As Ctrl-C in a terminal or a service manager does it: npm, Node and whatever shares their group.
    const signalledAt = Date.now();
    process.kill(-service.child.pid!, 'SIGTERM');
    const code = await service.exited;
    const stoppedIn = Date.now() - signalledAt;
    await load.stop();

    expect({ code, within10s: stoppedIn < 10_000, serverErrors: serverErrors(load.statuses) }).toEqual({ code: 0, within10s: true, serverErrors: [] });
    expect(answeredBefore).toBeGreaterThan(0);
    expect(isAlive(postgres)).toBe(false);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  }, 60_000);

  /** 5 rounds in npm test; `EARSHOT_STOP_ROUNDS=100 npx vitest run test/shutdown.test.ts -t 'SIGTERMs to npm'` runs the full check. */
  const stopRounds = Number(process.env.EARSHOT_STOP_ROUNDS || 5);

  it('exits 0 on each of several SIGTERMs to npm in a row, under load, leaving nothing running', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    let apiKey: string | undefined;
    for (let round = 1; round <= stopRounds; round++) {
      const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
      await service.ready;
      apiKey ??= (await createServiceWorkspace(dataDir)).apiKey;
      const postgres = (await postmasterPid(dataDir))!;
      const load = steadyLoad(`http://127.0.0.1:${port}/v1/whoami`, `Bearer ${apiKey}`, 4);
      await sleep(300);
      // npm passes the signal on to the service, one Node process that stops itself in order.
      service.child.kill('SIGTERM');
      const code = await service.exited;
      await load.stop();
      expect({ round, code, serverErrors: serverErrors(load.statuses), postgresRunning: isAlive(postgres) }).toEqual({
        round,
        code: 0,
        serverErrors: [],
        postgresRunning: false,
      });
      expect(service.stderr()).toContain('SIGTERM received, stopping');
    }
  }, stopRounds * 24_000);

  it('exits 0 within 10 s on SIGTERM while PostgreSQL is frozen, with requests waiting on it, and leaves none of its processes behind', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    await service.ready;
    const { apiKey } = await createServiceWorkspace(dataDir);
    const postgres = await freezePostgres(dataDir);
    cleanups.push(async () => postgres.forEach((pid) => isAlive(pid) && process.kill(pid, 'SIGKILL')));

    const load = steadyLoad(`http://127.0.0.1:${port}/v1/whoami`, `Bearer ${apiKey}`, 4);
    await sleep(1_000);
    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    const code = await service.exited;
    const stoppedIn = Date.now() - signalledAt;
    await load.stop();

    expect({ code, within10s: stoppedIn < 10_000, running: postgres.filter(isAlive) }).toEqual({ code: 0, within10s: true, running: [] });
    expect([...load.statuses.keys()].filter((status) => status !== 503)).toEqual([]);
  }, 60_000);

  it('exits 0 on a SIGTERM that comes while it still loads, before anything has started', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    // Node has begun (npm's child), and has had the moment tsx takes to load; Earshot's modules take seconds more.
    for (const until = Date.now() + 30_000; (await serverProcesses(service.child.pid!)).length < 2 && Date.now() < until; ) await sleep(20);
    await sleep(2_500);
    service.child.kill('SIGTERM');

    expect({ code: await service.exited, ready: service.logLines().some((line) => /\bready\b/.test(line.message)) }).toEqual({ code: 0, ready: false });
    expect(await postmasterPid(dataDir)).toBeUndefined();
  }, 60_000);

  it('stops as on SIGTERM, its PostgreSQL with it, when its output is closed (npm start | head)', async () => {
    const { dataDir, remove } = await serviceSettings();
    cleanups.push(remove);
    const service = npmStart(['--role', 'worker'], { EARSHOT_DATA_DIR: dataDir });
    // What `| head` does once it has its lines: the reading end goes, and the next line written fails with EPIPE.
    service.child.stderr!.destroy();
    const code = await service.exited;

    expect(code).toBe(0);
    // It had started its PostgreSQL (it writes its first line only then), and stopped it.
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  }, 60_000);

  it('after being killed, leaves its PostgreSQL running for the next npm start, which takes it over and stops it', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const crashed = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    await crashed.ready;
    const postgres = (await postmasterPid(dataDir))!;
    process.kill(-crashed.child.pid!, 'SIGKILL');
    await crashed.exited;
    expect(isAlive(postgres)).toBe(true);

    const next = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    await next.ready;
    expect(await postmasterPid(dataDir)).toBe(postgres);
    expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(isAlive(postgres)).toBe(false);
  }, 60_000);

  it('starts over a stale postmaster.pid whose PID now belongs to another process', async () => {
    const { dataDir, port, remove } = await serviceSettings();
    cleanups.push(remove);
    const first = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    await first.ready;
    const stalePostmasterPid = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // After a crash the file stays; after a reboot its PID may be any process's.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(async () => other.kill());
    const lines = stalePostmasterPid.split('\n');
    lines[0] = String(other.pid);
    await writeFile(path.join(dataDir, 'pg', 'postmaster.pid'), lines.join('\n'));

    const second = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });
    expect(await second.ready).toMatchObject({ message: `Earshot all ready on port ${port}` });
    expect(second.logLines().map((line) => line.message)).toContain(
      'removing a stale postmaster.pid: the process it names is not this data directory’s PostgreSQL',
    );
    expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    expect(isAlive(other.pid!)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
