import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpTools } from '../mcp/tools.ts';
import { minimalInput, operationFor, rootFields } from './fuzz/graphql-operations.ts';
import { minimalValue, resolveSchema, type SchemaContext } from './fuzz/schema-arbitraries.ts';
import { patiently } from './harness.ts';
import { type ApiOperation, catalogueIds, isPublicOperation, isReadOperation, operationsOf } from './id-catalogue.ts';
import { authorizedTokens } from './oauth-flow.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';
import { jobsSettled, workspaceRows } from './workspace-rows.ts';

/**
 * A `read` credential (an API key, or an OAuth token granted read access)
 * changes nothing, on any surface (spec 5.5): every operation of
 * `openapi.json` but GET (and the compatibility API's lists and exports,
 * which it may run) answers 403 `read_only_key`, every GraphQL mutation
 * over HTTP and over graphql-ws answers `read_only_key` (those that take no
 * credential at all answer as they answer nobody), and every MCP write tool
 * is refused. All of it is sent with real ids of the workspace and valid
 * bodies, so a route that forgot the rule would change something; and
 * afterwards the workspace's stored rows are as they were. Generated from
 * the published descriptions, so what is added later is checked too.
 */

let configured: ConfiguredEarshot;
let seeded: SeededWorkspace;
let document: any;
let ids: (string | number)[];
let readCredentials: Record<'API key' | 'OAuth token', string>;

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 });
  seeded = await seedEveryObject(configured, 'Reader');
  const { earshot } = configured;
  document = (await earshot.rest('GET', '/v1/openapi.json')).body;
  const found = await catalogueIds(document, (method, path, body) => patiently(() => earshot.rest(method, path, { key: seeded.apiKey, body })));
  ids = [...found.ids, ...found.integerIds];
  const oauth = await authorizedTokens(earshot.url, { cookie: seeded.session.cookie, workspaceId: seeded.workspaceId, scope: 'read' });
  readCredentials = { 'API key': seeded.readKey, 'OAuth token': oauth.access_token };
}, 300_000);
afterAll(async () => {
  await configured?.stop();
});

/**
 * The workspace's stored rows but what every authenticated call writes
 * (when a key or grant was last used, the requests counted against the
 * rate limit), for comparing before and after.
 */
async function storedRows(): Promise<Record<string, unknown[]>> {
  await jobsSettled(configured.earshot.sql);
  const { request_budgets: _counted, ...rows } = await workspaceRows(configured.earshot.sql, seeded.workspaceId);
  return JSON.parse(JSON.stringify(rows, (key, value) => (key === 'last_used_at' ? undefined : value)));
}

const context = (): SchemaContext => ({ components: document.components.schemas, idsFor: () => ids });
const minimalBody = (entry: ApiOperation) => {
  const schema = entry.operation.requestBody?.content?.['application/json']?.schema;
  return schema ? minimalValue(resolveSchema(schema, context()), context()) : undefined;
};

/** The path with each parameter filled by the first of the workspace's ids that the route up to it reads, else the first id. */
async function pathWithOwnIds(path: string): Promise<string> {
  let filled = path;
  for (const [parameter] of path.matchAll(/\{\w+\}/g)) {
    const upTo = filled.slice(0, filled.indexOf(parameter) + parameter.length);
    let chosen = ids[0];
    for (const id of ids) {
      const read = await configured.earshot.rest('GET', upTo.replace(parameter, encodeURIComponent(String(id))), { key: seeded.apiKey });
      if (read.status < 300) {
        chosen = id;
        break;
      }
    }
    filled = filled.replace(parameter, encodeURIComponent(String(chosen)));
  }
  return filled;
}

const rootMutations = () => rootFields().filter(({ kind }) => kind === 'mutation');
const minimalVariables = (field: ReturnType<typeof rootMutations>[number]['field']) => Object.fromEntries(field.args.map((arg) => [arg.name, minimalInput(arg.type)]));
/** The first result of an operation sent over graphql-ws with the credential in its connection parameters. */
async function firstOverSocket(credential: string, query: string, variables: Record<string, unknown>): Promise<unknown> {
  const client = configured.earshot.subscribe(credential);
  try {
    return await new Promise((resolve, reject) => {
      client.subscribe({ query, variables }, { next: resolve, error: reject, complete: () => reject(new Error('completed without a result')) });
    });
  } finally {
    await client.dispose();
  }
}

const codesOf = (body: any): string[] => (body?.errors ?? []).map((error: any) => error.extensions?.code);

describe('a read credential changes nothing, on any surface', () => {
  it('answers every REST operation but reads with 403 read_only_key, and runs the reads', async () => {
    const before = await storedRows();
    const findings: string[] = [];
    const changes = operationsOf(document).filter((entry) => !['get', 'head'].includes(entry.method) && !isPublicOperation(entry));
    expect(changes.length).toBeGreaterThan(50);
    for (const entry of changes) {
      const path = await pathWithOwnIds(entry.path);
      const compat = entry.path.startsWith('/compat/');
      for (const [kind, credential] of Object.entries(readCredentials)) {
        const answer = await patiently(() => configured.earshot.rest(entry.method.toUpperCase(), path, { key: credential, body: minimalBody(entry) }));
        const where = `${kind}: ${entry.method.toUpperCase()} ${entry.path} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`;
        if (isReadOperation(entry)) {
          if (answer.status !== 200) findings.push(`a read refused, ${where}`);
        } else if (answer.status !== 403 || answer.body?.error?.code !== (compat ? 'FORBIDDEN' : 'read_only_key')) {
          findings.push(where);
        }
      }
    }
    expect(findings).toEqual([]);
    expect(await storedRows()).toEqual(before);
  }, 600_000);

  it('answers every GraphQL mutation with read_only_key over HTTP and over graphql-ws, but those that need no credential', async () => {
    const before = await storedRows();
    const findings: string[] = [];
    for (const root of rootMutations()) {
      const query = operationFor(root);
      const variables = minimalVariables(root.field);
      const anonymous = await configured.earshot.graphql(query, variables);
      const needsCredential = codesOf(anonymous.body).includes('unauthorized');
      for (const [kind, credential] of Object.entries(readCredentials)) {
        const overHttp = await configured.earshot.graphql(query, variables, credential);
        const overSocket = await firstOverSocket(credential, query, variables);
        const answers = { http: codesOf(overHttp.body), ws: codesOf(overSocket) };
        const expected = needsCredential ? { http: ['read_only_key'], ws: ['read_only_key'] } : { http: codesOf(anonymous.body), ws: codesOf(anonymous.body) };
        if (JSON.stringify(answers) !== JSON.stringify(expected)) findings.push(`${kind}: ${root.field.name} answered ${JSON.stringify(answers)}, not ${JSON.stringify(expected)}`);
        if (needsCredential && overHttp.status !== 403) findings.push(`${kind}: ${root.field.name} over HTTP answered ${overHttp.status}`);
      }
    }
    expect(findings).toEqual([]);
    expect(await storedRows()).toEqual(before);
  }, 600_000);

  it('lists the MCP read tools only, and refuses every other tool with read_only_key', async () => {
    const before = await storedRows();
    for (const credential of Object.values(readCredentials)) {
      const client = new McpClient({ name: 'earshot-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${configured.earshot.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed.sort()).toEqual(mcpTools.filter((tool) => tool.readOnly).map((tool) => tool.name).sort());
      for (const tool of mcpTools.filter((each) => !each.readOnly)) {
        const answer = (await client.callTool({ name: tool.name, arguments: { id: ids[0] } })) as { isError?: boolean; content: { text: string }[] };
        expect({ tool: tool.name, isError: answer.isError, text: answer.content[0].text }).toEqual({
          tool: tool.name,
          isError: true,
          text: `read_only_key: ${tool.name} changes the workspace; this credential may only read`,
        });
      }
      await client.close();
    }
    expect(await storedRows()).toEqual(before);
  }, 120_000);
});
