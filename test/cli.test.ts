import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { type RunningEarshot, startEarshot } from '../server/start.ts';
import { runDailyTicksThrough } from '../subgraphs/billing/index.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { createTestDatabase, startTestEarshot, testConfig } from './harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent earshot -- …` as an operator types it, with only the given database settings. */
function runCli(args: string[], env: { DATABASE_URL?: string; EARSHOT_DATA_DIR?: string }, input = ''): Promise<CliRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && name !== 'EARSHOT_DATA_DIR'),
  );
  return new Promise((resolve) => {
    const child = execFile(
      'npm',
      ['run', '--silent', 'earshot', '--', ...args],
      { cwd: repoRoot, env: { ...inherited, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) ?? 1 : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
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
    const run = await runCli(['workspace', 'create', '--name', 'Acme Inc'], { DATABASE_URL: databaseUrl });
    const created = expectCreated(run, 'Acme Inc');
    // Which database, without its password.
    const url = new URL(databaseUrl);
    expect(url.password).not.toBe('');
    expect(run.stderr).toContain(`earshot: using DATABASE_URL postgres://${url.username}@${url.host}${url.pathname}\n`);
    expect(run.stderr).not.toContain(url.password);
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

  it('with --owner-email makes that user the owner, found again by address for a second workspace', async () => {
    const databaseUrl = await createTestDatabase();
    const first = await runCli(['workspace', 'create', '--name', 'Owned', '--owner-email', 'Ada@Example.com'], { DATABASE_URL: databaseUrl });
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout);
    expect(created).toEqual({
      workspace: { id: expect.stringMatching(/^org_[0-9a-z]{26}$/), name: 'Owned' },
      apiKey: expect.stringMatching(/^mk_live_/),
      owner: { id: expect.stringMatching(/^usr_[0-9a-z]{26}$/), email: 'ada@example.com', name: 'Ada' },
    });
    const second = await runCli(['workspace', 'create', '--name', 'Also owned', '--owner-email', 'ada@example.com'], { DATABASE_URL: databaseUrl });
    expect(JSON.parse(second.stdout).owner).toEqual(created.owner);

    const refused = await runCli(['workspace', 'create', '--name', 'X', '--owner-email', 'not-an-address'], { DATABASE_URL: databaseUrl });
    expect(refused).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('--owner-email must be an e-mail address') });
  });

  it('user set-password sets a password read from standard input that signs in over REST', async () => {
    const databaseUrl = await createTestDatabase();
    const created = JSON.parse((await runCli(['workspace', 'create', '--name', 'Pw', '--owner-email', 'pat@example.com'], { DATABASE_URL: databaseUrl })).stdout);
    const tooShort = await runCli(['user', 'set-password', '--email', 'pat@example.com'], { DATABASE_URL: databaseUrl }, 'short\n');
    expect(tooShort).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('the password must be at least 10 characters') });
    const unknown = await runCli(['user', 'set-password', '--email', 'nobody@example.com'], { DATABASE_URL: databaseUrl }, 'long enough secret\n');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no user has the address nobody@example.com');
    const set = await runCli(['user', 'set-password', '--email', 'Pat@example.com'], { DATABASE_URL: databaseUrl }, 'long enough secret\n');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ user: created.owner.id, passwordSet: true });

    const server = await startTestEarshot({}, { databaseUrl });
    try {
      const signIn = (password: string) =>
        server.rest('POST', '/v1/auth/password', { body: { email: 'pat@example.com', password } }).then((response) => response.status);
      expect(await signIn('long enough secret')).toBe(200);
      expect(await signIn('long enough secret\n')).toBe(401);
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
    let dataDir: string;
    let server: RunningEarshot | undefined;

    // A directory as `mktemp -d` makes it (0700, empty): as root, the postgres user must still reach it.
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'earshot-cli-'));
    });
    afterAll(async () => {
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    const postmasterPid = () => path.join(dataDir, 'pg', 'postmaster.pid');
    const startServer = () => startEarshot(testConfig('', { databaseUrl: undefined, dataDir }), 'all', createLogger('silent'));

    it('refuses a data directory that holds no database yet: nothing on stdout, the reason on stderr, nothing created', async () => {
      const run = await runCli(['workspace', 'create', '--name', 'Nowhere'], { EARSHOT_DATA_DIR: dataDir });
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: expect.stringContaining(
          `earshot: ${dataDir} (EARSHOT_DATA_DIR) holds no database yet; nothing was done.\n` +
            'earshot: start the server first (npm start) and run this again while it runs, or pass --init to create a new database there.\n',
        ),
      });
      expect(await readdir(dataDir)).toEqual([]);

      const nested = path.join(dataDir, 'not', 'there');
      const elsewhere = await runCli(['wallet', 'credit', '--workspace', 'org_x', '--cents', '100'], { EARSHOT_DATA_DIR: nested });
      expect(elsewhere).toMatchObject({ code: 1, stdout: '' });
      expect(elsewhere.stderr).toContain(`earshot: ${nested} (EARSHOT_DATA_DIR) holds no database yet; nothing was done.`);
      expect(existsSync(nested)).toBe(false);
    });

    it('with --init creates the database, starts and stops PostgreSQL for the command, and the key works against a server started afterwards', async () => {
      const run = await runCli(['workspace', 'create', '--name', 'Solo', '--init'], { EARSHOT_DATA_DIR: dataDir });
      const created = expectCreated(run, 'Solo');
      expect(run.stderr).toContain(`earshot: created a new embedded database in ${dataDir} (--init)\n`);
      expect(run.stderr).toContain(`earshot: using the embedded PostgreSQL of ${dataDir} (no server running; started it for this command)\n`);
      expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(postmasterPid())).toBe(false);

      server = await startServer();
      expect(await whoami(server.url, created.apiKey)).toMatchObject({ status: 200, body: { workspace: created.workspace } });
    });

    it("uses the running server's embedded PostgreSQL while the server runs, and says so", async () => {
      expect(existsSync(postmasterPid())).toBe(true);
      const port = Number((await readFile(postmasterPid(), 'utf8')).split('\n')[3]);
      const run = await runCli(['workspace', 'create', '--name', 'Beside'], { EARSHOT_DATA_DIR: dataDir });
      const created = expectCreated(run, 'Beside');
      expect(run.stderr).toContain(`earshot: using the embedded PostgreSQL of ${dataDir} (server running, port ${port})\n`);
      expect(await whoami(server!.url, created.apiKey)).toMatchObject({ status: 200, body: { workspace: created.workspace } });
      expect(existsSync(postmasterPid())).toBe(true);

      await server!.stop();
      server = undefined;
      expect(existsSync(postmasterPid())).toBe(false);
    });

    it('needs no --init once the directory holds a database, with no server running', async () => {
      const run = await runCli(['workspace', 'create', '--name', 'Later'], { EARSHOT_DATA_DIR: dataDir });
      const created = expectCreated(run, 'Later');
      expect(run.stderr).toContain(`earshot: using the embedded PostgreSQL of ${dataDir} (no server running; started it for this command)\n`);
      expect(run.stderr).not.toContain('created a new embedded database');
      expect(existsSync(postmasterPid())).toBe(false);

      server = await startServer();
      expect(await whoami(server.url, created.apiKey)).toMatchObject({ status: 200, body: { workspace: created.workspace } });
    });
  });
});

describe('earshot billing tick', { timeout: 90_000 }, () => {
  const dayBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  const quiet = { workspaces: 0, keywordDaysCharged: 0, keywordsPaused: 0, walletsPaused: 0 };

  it('ticks the day after every day before it not yet ticked, oldest first, prints what it charged, and charges nothing the second time', async () => {
    const databaseUrl = await createTestDatabase();
    const sql = connect(databaseUrl, { max: 2 });
    try {
      const today = new Date().toISOString().slice(0, 10);
      const { workspaceId } = await newWorkspace(sql, 'Ticked by hand');
      const [keyword] = await addKeywords(sql, workspaceId, 1);
      await sql`update keywords set created_at = ${`${dayBefore(today, 10)}T00:00:00Z`} where id = ${keyword.id}`;
      // The service last ticked three days ago, then stopped.
      await runDailyTicksThrough(sql, dayBefore(today, 3), new Date());

      const first = await runCli(['billing', 'tick', '--day', dayBefore(today, 1)], { DATABASE_URL: databaseUrl });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^\{[^\n]*\}\n$/);
      const charged = { workspaces: 1, keywordDaysCharged: 1, keywordsPaused: 0, walletsPaused: 0 };
      expect(JSON.parse(first.stdout)).toEqual({ ticked: [{ day: dayBefore(today, 2), ...charged }, { day: dayBefore(today, 1), ...charged }] });

      const second = await runCli(['billing', 'tick', '--day', dayBefore(today, 1)], { DATABASE_URL: databaseUrl });
      expect(JSON.parse(second.stdout)).toEqual({ ticked: [{ day: dayBefore(today, 1), ...quiet }] });

      const days = await sql`select occurred_at::date::text as day, count(*)::int as times from ledger_entries where keyword_id = ${keyword.id} and kind = 'keyword_day' group by 1 order by 1`;
      expect(days).toEqual([3, 2, 1].map((ago) => ({ day: dayBefore(today, ago), times: 1 })));
      expect(await ledgerBalanceMismatches(sql)).toEqual([]);
    } finally {
      await sql.end();
    }
  });

  it('refuses a day that has not begun or is no date, before touching the database', async () => {
    const unused = { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' };
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ahead = await runCli(['billing', 'tick', '--day', tomorrow], unused);
    expect(ahead).toEqual({ code: 2, stdout: '', stderr: `billing tick: ${tomorrow} has not begun yet (UTC)\n` });
    const impossible = await runCli(['billing', 'tick', '--day', '2028-02-30'], unused);
    expect(impossible).toEqual({ code: 2, stdout: '', stderr: 'billing tick: --day must be a date YYYY-MM-DD\n' });
  });
});
