import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { type RunningEarshot, startEarshot } from '../server/start.ts';
import { createTestDatabase, startTestEarshot, testConfig } from './harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent earshot -- …` as an operator types it, with only the given database settings. */
function runCli(args: string[], env: { DATABASE_URL?: string; EARSHOT_DATA_DIR?: string }): Promise<CliRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && name !== 'EARSHOT_DATA_DIR'),
  );
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'earshot', '--', ...args],
      { cwd: repoRoot, env: { ...inherited, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) ?? 1 : 0, stdout, stderr }),
    );
  });
}

/** The one line `workspace create` must print, parsed after checking it is exactly that. */
function expectCreated(run: CliRun, name: string): { workspace: { id: string; name: string }; apiKey: string } {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^\{[^\n]*\}\n$/);
  const created = JSON.parse(run.stdout);
  expect(created).toEqual({
    workspace: { id: expect.stringMatching(/^org_[0-9a-z]{26}$/), name },
    apiKey: expect.stringMatching(/^mk_live_[0-9A-Za-z]{43}$/),
  });
  return created;
}

async function whoami(url: string, apiKey: string) {
  const response = await fetch(`${url}/v1/whoami`, { headers: { authorization: `Bearer ${apiKey}` } });
  return { status: response.status, body: await response.json() };
}

// Each case spawns npm and tsx, seconds apiece on a busy 2-core machine.
describe('earshot workspace create', { timeout: 60_000 }, () => {
  it('with DATABASE_URL prints the workspace and a key that works against a server on that database', async () => {
    const databaseUrl = await createTestDatabase();
    const created = expectCreated(await runCli(['workspace', 'create', '--name', 'Acme Inc'], { DATABASE_URL: databaseUrl }), 'Acme Inc');
    const server = await startTestEarshot({}, { databaseUrl });
    try {
      expect(await whoami(server.url, created.apiKey)).toEqual({
        status: 200,
        body: {
          workspace: created.workspace,
          auth: { kind: 'api_key', scope: 'write', apiKeyId: expect.stringMatching(/^key_/), expiresAt: null },
          user: null,
        },
      });
    } finally {
      await server.stop();
    }
  });

  it('refuses a missing name with usage on stderr and nothing on stdout', async () => {
    const run = await runCli(['workspace', 'create'], { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('workspace create needs --name NAME');
  });

  describe('with EARSHOT_DATA_DIR and no DATABASE_URL', () => {
    let parent: string;
    let dataDir: string;
    let server: RunningEarshot | undefined;

    beforeAll(async () => {
      parent = await mkdtemp(path.join(os.tmpdir(), 'earshot-cli-'));
      // Embedded PostgreSQL runs as the postgres user, which must reach the data directory.
      await chmod(parent, 0o755);
      dataDir = path.join(parent, 'data');
    });
    afterAll(async () => {
      await server?.stop();
      await rm(parent, { recursive: true, force: true });
    });

    const postmasterPid = () => path.join(dataDir, 'pg', 'postmaster.pid');

    it('starts the embedded PostgreSQL itself when no server runs, and stops it afterwards', async () => {
      const created = expectCreated(await runCli(['workspace', 'create', '--name', 'Solo'], { EARSHOT_DATA_DIR: dataDir }), 'Solo');
      expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(postmasterPid())).toBe(false);

      server = await startEarshot(testConfig('', { databaseUrl: undefined, dataDir }), 'all', createLogger('silent'));
      expect((await whoami(server.url, created.apiKey)).body.workspace).toEqual(created.workspace);
    });

    it("uses the running server's embedded PostgreSQL while the server runs", async () => {
      expect(existsSync(postmasterPid())).toBe(true);
      const created = expectCreated(await runCli(['workspace', 'create', '--name', 'Beside'], { EARSHOT_DATA_DIR: dataDir }), 'Beside');
      expect((await whoami(server!.url, created.apiKey)).body.workspace).toEqual(created.workspace);
      expect(existsSync(postmasterPid())).toBe(true);

      await server!.stop();
      server = undefined;
      expect(existsSync(postmasterPid())).toBe(false);
    });
  });
});
