import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { freePort } from '../runtime/database.ts';
import { isAlive } from '../runtime/postmaster.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface RunningDemo {
  npm: ChildProcess;
  dataDir: string;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * `EARSHOT_DATA_DIR=$(mktemp -d) npm run demo`, in a process group of its
 * own as a terminal would start it, resolved once it prints its banner.
 * When the test ends, even failed, the whole group goes (a demo or its
 * PostgreSQL must not outlive it) and so does the data directory.
 */
async function startDemo(onTestFinished: TestContext['onTestFinished']): Promise<RunningDemo> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'earshot-demo-'));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('EARSHOT_') && name !== 'PORT'),
  );
  const npm = spawn('npm', ['run', 'demo'], {
    cwd: repoRoot,
    env: { ...inherited, EARSHOT_DATA_DIR: dataDir, PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const demo = { npm, dataDir, exited, output: () => output };
  onTestFinished(async () => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // The group has already exited.
    }
    await rm(dataDir, { recursive: true, force: true });
  });
  await new Promise<void>((resolve, reject) => {
    for (const stream of [npm.stdout!, npm.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Earshot demo is running at')) resolve();
      });
    }
    void exited.then((code) => reject(new Error(`npm run demo exited with ${code} before it was running:\n${output}`)));
  });
  return demo;
}

/** Whether any process of the group (npm, tsx, the demo, PostgreSQL) still runs. */
function groupIsRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// As root, in a data directory made as `mktemp -d` makes one (0700): the
// demo's data lives in a subdirectory the postgres user must reach through it.
describe.concurrent('npm run demo', { timeout: 60_000 }, () => {
  it('stops on Ctrl-C (SIGINT to its whole process group), PostgreSQL included, and exits 0', async ({ expect, onTestFinished }) => {
    const demo = await startDemo(onTestFinished);
    const postmasterPidFile = path.join(demo.dataDir, 'demo', 'pg', 'postmaster.pid');
    const postgresPid = Number((await readFile(postmasterPidFile, 'utf8')).split('\n')[0]);

    // A terminal signals every process of the foreground group: npm, tsx, the demo and PostgreSQL get SIGINT at once.
    process.kill(-demo.npm.pid!, 'SIGINT');
    expect(await demo.exited, demo.output()).toBe(0);
    expect(demo.output()).toContain('SIGINT received, stopping the demo');
    expect(existsSync(postmasterPidFile)).toBe(false);
    // Stopped means no longer running: a postmaster that exited may wait a moment as a zombie for PID 1 to reap it.
    expect(isAlive(postgresPid)).toBe(false);
    await expect.poll(() => groupIsRunning(demo.npm.pid!), { timeout: 5_000 }).toBe(false);
  });

  it('stops on SIGTERM sent to npm alone, PostgreSQL included, and exits 0', async ({ expect, onTestFinished }) => {
    const demo = await startDemo(onTestFinished);
    const postmasterPidFile = path.join(demo.dataDir, 'demo', 'pg', 'postmaster.pid');
    const postgresPid = Number((await readFile(postmasterPidFile, 'utf8')).split('\n')[0]);

    demo.npm.kill('SIGTERM');
    expect(await demo.exited, demo.output()).toBe(0);
    expect(demo.output()).toContain('SIGTERM received, stopping the demo');
    expect(existsSync(postmasterPidFile)).toBe(false);
    expect(isAlive(postgresPid)).toBe(false);
    await expect.poll(() => groupIsRunning(demo.npm.pid!), { timeout: 5_000 }).toBe(false);
  });
});
