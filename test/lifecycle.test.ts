import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { subgraphNames } from '../runtime/config.ts';
import { freePort } from '../runtime/database.ts';
import { createTestDatabase, startTestEarshot, type TestEarshot } from './harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface StartedProcess {
  child: ChildProcess;
  /** The JSON log line that says the process serves. */
  ready: Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stderr(): string;
}

const started: StartedProcess[] = [];
afterEach(() => {
  // A failed test must not leave servers (or their PostgreSQL) behind: each
  // runs in a process group of its own, and the whole group goes.
  for (const { child } of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group has already exited.
    }
  }
});

/** `npm start -- …args` as an operator runs it, with only the given database and address settings. */
function npmStart(args: string[], env: Record<string, string>): StartedProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('EARSHOT_') && name !== 'PORT'),
  );
  const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
    cwd: repoRoot,
    // The live Bluesky stream would reach the real network from a test.
    env: { ...inherited, EARSHOT_BLUESKY_LIVE: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Only whole lines: a chunk may end in the middle of one.
      for (const line of stderr.split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line);
        if (/\bready\b/.test(entry.message)) resolve(entry);
      }
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before it was ready:\n${stderr}`)));
  });
  // Whoever awaits `ready` sees the failure; an unawaited one must not fail the run on its own.
  ready.catch(() => {});
  const handle = { child, ready, exited, stderr: () => stderr };
  started.push(handle);
  return handle;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  let parent: string | undefined;
  afterAll(() => parent && rm(parent, { recursive: true, force: true }));

  it('serves everything on PORT with embedded PostgreSQL, and on SIGTERM stops it all and exits 0', async () => {
    // A directory as `mktemp -d` makes it (0700): as root, Earshot must let
    // the postgres user that embedded PostgreSQL runs as enter it.
    parent = await mkdtemp(path.join(os.tmpdir(), 'earshot-start-'));
    const dataDir = parent;
    const port = await freePort();
    const earshot = npmStart([], { PORT: String(port), EARSHOT_DATA_DIR: dataDir });

    expect(await earshot.ready).toMatchObject({ level: 'info', message: `Earshot all ready on port ${port}` });
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', version: '0.0.1', time: expect.any(String) });

    const postmasterPidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const postgresPid = Number((await readFile(postmasterPidFile, 'utf8')).split('\n')[0]);
    expect(isAlive(postgresPid)).toBe(true);

    earshot.child.kill('SIGTERM');
    expect(await earshot.exited).toBe(0);
    expect(existsSync(postmasterPidFile)).toBe(false);
    expect(isAlive(postgresPid)).toBe(false);
    expect(earshot.stderr()).toContain('SIGTERM received, stopping');
  }, 120_000);
});

describe('npm start -- --role', () => {
  const subgraphs: TestEarshot[] = [];
  afterAll(() => Promise.all(subgraphs.map((subgraph) => subgraph.stop())));

  it('runs subgraphs, gateway and facade as separate processes that answer /v1/whoami together', async () => {
    const databaseUrl = await createTestDatabase();
    // The subgraph roles run in this process to keep the test fast; the gateway and facade are real `npm start` processes.
    for (const name of subgraphNames) subgraphs.push(await startTestEarshot({}, { role: `subgraph:${name}`, databaseUrl }));
    const { workspace, apiKey } = await subgraphs[0].createWorkspace('Many processes');

    const [gatewayPort, facadePort] = [await freePort(), await freePort()];
    const gateway = npmStart(['--role', 'gateway'], {
      DATABASE_URL: databaseUrl,
      PORT: String(gatewayPort),
      ...Object.fromEntries(subgraphNames.map((name, i) => [`EARSHOT_SUBGRAPH_${name.toUpperCase()}_URL`, subgraphs[i].url])),
    });
    const facade = npmStart(['--role', 'facade'], {
      DATABASE_URL: databaseUrl,
      PORT: String(facadePort),
      EARSHOT_GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
    });
    expect(await gateway.ready).toMatchObject({ message: `Earshot gateway ready on port ${gatewayPort}` });
    expect(await facade.ready).toMatchObject({ message: `Earshot facade ready on port ${facadePort}` });

    const whoami = await fetch(`http://127.0.0.1:${facadePort}/v1/whoami`, {
      headers: { authorization: `Bearer ${apiKey}`, 'x-request-id': 'across-processes' },
    });
    expect(whoami.status).toBe(200);
    expect(whoami.headers.get('x-request-id')).toBe('across-processes');
    expect(whoami.headers.get('x-ratelimit-limit')).toBe('600');
    expect(await whoami.json()).toEqual({
      workspace,
      auth: { kind: 'api_key', scope: 'write', apiKeyId: expect.stringMatching(/^key_/), expiresAt: null },
      user: null,
    });

    // The facade process serves no GraphQL; the gateway process serves no REST.
    expect((await fetch(`http://127.0.0.1:${facadePort}/graphql`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${gatewayPort}/v1/health`)).status).toBe(404);

    facade.child.kill('SIGTERM');
    gateway.child.kill('SIGTERM');
    expect(await facade.exited).toBe(0);
    expect(await gateway.exited).toBe(0);
  }, 120_000);

  it('refuses to start a gateway that is not told where the subgraphs are', async () => {
    const databaseUrl = await createTestDatabase();
    await expect(startTestEarshot({}, { role: 'gateway', databaseUrl })).rejects.toThrow(
      'The gateway role needs EARSHOT_SUBGRAPH_KEYWORDS_URL, EARSHOT_SUBGRAPH_MENTIONS_URL, EARSHOT_SUBGRAPH_BILLING_URL, EARSHOT_SUBGRAPH_TEAM_URL',
    );
  });
});
