import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { subgraphNames } from '../runtime/config.ts';
import { freePort } from '../runtime/database.ts';
import { createTestDatabase, recordingLogger, startTestEarshot, type TestEarshot, testSecretsEnv } from './harness.ts';
import { isAlive, killStartedServices, npmStart, type ServiceProcess } from './service-process.ts';

afterEach(killStartedServices);

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
    // For a supervisor that watches stdout rather than the log on stderr.
    await vi.waitFor(() => expect(earshot.stdout()).toContain(`Earshot all ready on http://127.0.0.1:${port}\n`));
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

/** SIGTERM to every process at once; each exits 0. */
async function expectCleanStops(...services: ServiceProcess[]): Promise<void> {
  for (const service of services) service.child.kill('SIGTERM');
  for (const service of services) expect(await service.exited).toBe(0);
}

describe('npm start -- --role', () => {
  const subgraphs: TestEarshot[] = [];
  afterAll(() => Promise.all(subgraphs.map((subgraph) => subgraph.stop())));

  it('runs subgraphs, gateway and facade as separate processes that answer /v1/whoami together', async () => {
    const databaseUrl = await createTestDatabase();
    // The subgraph roles run in this process to keep the test fast; the gateway and facade are real `npm start` processes.
    for (const name of subgraphNames) subgraphs.push(await startTestEarshot({}, { role: `subgraph:${name}`, databaseUrl }));
    const { workspace, apiKey } = await subgraphs[0].createWorkspace('Many processes');

    const [gatewayPort, facadePort] = [await freePort(), await freePort()];
    // Every process of this deployment takes its secrets key from the environment, as the in-process subgraphs do.
    const gateway = npmStart(['--role', 'gateway'], {
      ...testSecretsEnv,
      DATABASE_URL: databaseUrl,
      PORT: String(gatewayPort),
      ...Object.fromEntries(subgraphNames.map((name, i) => [`EARSHOT_SUBGRAPH_${name.toUpperCase()}_URL`, subgraphs[i].url])),
    });
    const facade = npmStart(['--role', 'facade'], {
      ...testSecretsEnv,
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

    await expectCleanStops(facade, gateway);
  }, 120_000);

  it('finds the other processes through DATABASE_URL alone: a gateway started first waits for the subgraphs, the facade finds the gateway', async () => {
    const databaseUrl = await createTestDatabase();
    const [gatewayPort, facadePort] = [await freePort(), await freePort()];
    // Nothing but the database, the port and the secrets key: the contract's "runs one part alone against DATABASE_URL".
    const gateway = npmStart(['--role', 'gateway'], { ...testSecretsEnv, DATABASE_URL: databaseUrl, PORT: String(gatewayPort) });
    const facade = npmStart(['--role', 'facade'], { ...testSecretsEnv, DATABASE_URL: databaseUrl, PORT: String(facadePort) });
    await expect.poll(() => gateway.logLines().some((line) => /^waiting for subgraph:keywords, subgraph:mentions/.test(line.message)), { timeout: 60_000 }).toBe(true);

    const started: TestEarshot[] = [];
    const { log, lines } = recordingLogger();
    for (const name of subgraphNames) started.push(await startTestEarshot({}, { role: `subgraph:${name}`, databaseUrl, log }));
    subgraphs.push(...started);
    // PORT 0 takes a free port; the ready line names the one taken.
    expect(lines.filter((line) => line.message.includes('ready')).map((line) => line.message)).toEqual(
      started.map((subgraph, i) => `Earshot subgraph:${subgraphNames[i]} ready on port ${new URL(subgraph.url).port}`),
    );
    expect(await gateway.ready).toMatchObject({ message: `Earshot gateway ready on port ${gatewayPort}` });
    expect(await facade.ready).toMatchObject({ message: `Earshot facade ready on port ${facadePort}` });

    const { workspace, apiKey } = await started[0].createWorkspace('Found through the database');
    const whoami = await fetch(`http://127.0.0.1:${facadePort}/v1/whoami`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(whoami.status).toBe(200);
    expect((await whoami.json()).workspace).toEqual(workspace);
    const graphql = await fetch(`http://127.0.0.1:${gatewayPort}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ whoami { workspace { name wallet { balanceCents } } } }' }),
    });
    expect(await graphql.json()).toEqual({ data: { whoami: { workspace: { name: 'Found through the database', wallet: { balanceCents: 580 } } } } });

    await expectCleanStops(facade, gateway);
  }, 120_000);

  it('answers 503 service_unavailable with Retry-After, not 500, while a subgraph or the gateway process cannot be reached', async () => {
    const databaseUrl = await createTestDatabase();
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const everything = await startTestEarshot({}, { databaseUrl });
    subgraphs.push(everything);
    const { apiKey } = await everything.createWorkspace('Parts away');
    const gateway = await startTestEarshot({ subgraphUrls: Object.fromEntries(subgraphNames.map((name) => [name, `${nobody}/graphql`])) }, { role: 'gateway', databaseUrl });
    const facadeOfGateway = await startTestEarshot({ gatewayUrl: gateway.url }, { role: 'facade', databaseUrl });
    const facadeOfNobody = await startTestEarshot({ gatewayUrl: nobody }, { role: 'facade', databaseUrl });
    subgraphs.push(gateway, facadeOfGateway, facadeOfNobody);

    const viaGraphQL = await gateway.graphql('{ whoami { workspace { name } } }', {}, apiKey);
    expect(viaGraphQL.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'service_unavailable', retryAfterSeconds: 5 }) })]);
    for (const facade of [facadeOfGateway, facadeOfNobody]) {
      const answer = await facade.rest('GET', '/v1/whoami', { key: apiKey });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body.error).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 5 });
    }
  }, 120_000);

  it('stops a gateway still waiting for its subgraphs on SIGTERM, exiting 0', async () => {
    const databaseUrl = await createTestDatabase();
    const gateway = npmStart(['--role', 'gateway'], { ...testSecretsEnv, DATABASE_URL: databaseUrl, PORT: String(await freePort()) });
    await expect.poll(() => gateway.logLines().some((line) => line.message.startsWith('waiting for subgraph:')), { timeout: 60_000 }).toBe(true);
    const stopAsked = Date.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expect(Date.now() - stopAsked).toBeLessThan(10_000);
  }, 120_000);
});
