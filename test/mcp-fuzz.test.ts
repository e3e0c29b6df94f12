import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpTools } from '../mcp/tools.ts';
import { countOutcome, fuzzScale, fuzzSeed, newFigures, onceMoreWhenOverloaded, recordFailure, recordFigures } from './fuzz/fuzz-run.ts';
import { hostileBodyText, hostileString, hostileValue } from './fuzz/hostile-values.ts';
import { type SchemaContext, stray, strayingValue } from './fuzz/schema-arbitraries.ts';
import { catalogueIds, type IdCatalogue, withoutCredentials } from './id-catalogue.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';
import { jobsSettled, workspaceRows } from './workspace-rows.ts';

/**
 * `/mcp` under generated load: every tool of `mcp/tools.ts` called through
 * the MCP SDK's own client with arguments built from the tool's input
 * schema (valid, near-valid, hostile), by write and read credentials, plus
 * raw JSON-RPC messages that are hostile in themselves. No HTTP answer may
 * be a 5xx; a failing tool call is a tool error whose text starts with the
 * spec's code (never `internal_error`), a refused message a JSON-RPC error
 * other than "internal error"; no other workspace's rows may change.
 */

const cases = 60 * fuzzScale;

let configured: ConfiguredEarshot;
let fuzzed: SeededWorkspace;
let bystander: SeededWorkspace;
let bystanderRows: Record<string, unknown[]>;
let known: IdCatalogue;
const clients: Record<'write' | 'read', Client> = {} as never;
const figures = newFigures('MCP: tool calls and JSON-RPC messages on /mcp');

async function connect(credential: string): Promise<Client> {
  const client = new Client({ name: 'earshot-fuzz', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${configured.earshot.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
  return client;
}

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 });
  fuzzed = await seedEveryObject(configured, 'Fuzzed');
  bystander = await seedEveryObject(configured, 'Bystander');
  const document = (await configured.earshot.rest('GET', '/v1/openapi.json')).body;
  known = withoutCredentials(await catalogueIds(document, (method, path, body) => configured.earshot.rest(method, path, { key: fuzzed.apiKey, body })));
  clients.write = await connect(fuzzed.apiKey);
  clients.read = await connect(fuzzed.readKey);
  await jobsSettled(configured.earshot.sql);
  bystanderRows = await workspaceRows(configured.earshot.sql, bystander.workspaceId);
}, 240_000);
afterAll(async () => {
  recordFigures('fuzz-mcp', figures);
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await configured?.stop();
});

const context = (): SchemaContext => ({ idsFor: () => [...known.ids, ...known.integerIds] });

type McpCase =
  | { kind: 'tool'; credential: 'write' | 'read'; name: string; args: unknown }
  | { kind: 'message'; body: string };

const toolCase: fc.Arbitrary<McpCase> = fc
  .record({
    tool: fc.constantFrom(...mcpTools),
    credential: fc.constantFrom<'write' | 'read'>('write', 'write', 'write', 'read'),
    how: stray,
    misnamed: fc.option(hostileString.filter((text) => text.length < 1_000), { freq: 10, nil: undefined }),
  })
  .chain(({ tool, credential, how, misnamed }) =>
    strayingValue(z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>, context(), how).map(
      (args): McpCase => ({ kind: 'tool', credential, name: misnamed ?? tool.name, args }),
    ),
  );

const jsonRpc = (message: unknown) => JSON.stringify(message);

const messageCase: fc.Arbitrary<McpCase> = fc
  .oneof(
    hostileBodyText,
    fc.record({ method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'resources/list', 'prompts/get', 'ping', 'no/such/method'), params: hostileValue, id: fc.oneof(fc.integer(), hostileValue) }).map(
      (message) => jsonRpc({ jsonrpc: '2.0', ...message }),
    ),
    fc.record({ name: fc.oneof(fc.constantFrom(...mcpTools.map((tool) => tool.name)), hostileString), arguments: hostileValue }).map((params) => jsonRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })),
    fc.array(fc.constantFrom({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '1.0', id: 2, method: 'tools/list' }, {}), { maxLength: 150 }).map(jsonRpc),
  )
  .map((body): McpCase => ({ kind: 'message', body }));

/** A tool's failure reads `<code>: <message>`, the code one of the spec's; a refused call is a protocol error other than an internal one. */
async function callTool(request: Extract<McpCase, { kind: 'tool' }>): Promise<void> {
  const where = `${request.credential} ${request.name.slice(0, 100)} ${JSON.stringify(request.args)?.slice(0, 400)}`;
  const call = () =>
    clients[request.credential].callTool({ name: request.name, arguments: request.args as Record<string, unknown> }).then(
      (result) => ({ result: result as { isError?: boolean; content: { type: string; text: string }[] } }),
      (error: unknown) => ({ error }),
    );
  // The database too busy to answer in time: the call is answered 503, which the client raises.
  const outcome = await onceMoreWhenOverloaded(figures, call, (answer) => 'error' in answer && answer.error instanceof StreamableHTTPError && answer.error.code === 503);
  if ('error' in outcome) {
    // A message the transport refuses before any tool sees it (a body over the limit) is an HTTP 4xx, not a JSON-RPC answer.
    if (outcome.error instanceof StreamableHTTPError) {
      countOutcome(figures, `HTTP ${outcome.error.code}`);
      expect(outcome.error.code, `${where} → ${String(outcome.error)}`).toBeGreaterThanOrEqual(400);
      expect(outcome.error.code, `${where} → ${String(outcome.error)}`).toBeLessThan(500);
      return;
    }
    countOutcome(figures, 'protocol error');
    expect(outcome.error, where).toBeInstanceOf(McpError);
    expect((outcome.error as McpError).code, `${where} → ${String(outcome.error)}`).not.toBe(-32603);
    return;
  }
  const text = outcome.result.content[0]?.text ?? '';
  countOutcome(figures, outcome.result.isError ? `tool error ${/^[a-z_]+/.exec(text)?.[0] ?? 'uncoded'}` : 'tool result');
  if (!outcome.result.isError) return;
  expect(text, where).toMatch(/^[a-z_]+: /);
  expect(text, where).not.toMatch(/^internal_error/);
}

async function sendMessage(request: Extract<McpCase, { kind: 'message' }>): Promise<void> {
  const send = async () => {
    const response = await fetch(`${configured.earshot.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fuzzed.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: request.body,
    });
    return { status: response.status, text: await response.text() };
  };
  const { status, text } = await onceMoreWhenOverloaded(figures, send, (answer) => answer.status === 503);
  countOutcome(figures, status);
  const where = `${request.body.slice(0, 400)} → ${status} ${text.slice(0, 400)}`;
  expect(status, where).toBeLessThan(500);
  if (!text) return;
  const answers = [JSON.parse(text)].flat();
  for (const answer of answers) {
    expect(answer.jsonrpc, where).toBe('2.0');
    if (answer.error) expect(answer.error.code, where).not.toBe(-32603);
  }
}

describe('a seeded fuzz run over every MCP tool', () => {
  it('answers every call with a result, a coded tool error or a protocol error, never a failure of ours', async () => {
    await fc
      .assert(
        fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: toolCase }, { weight: 1, arbitrary: messageCase }), (request) =>
          request.kind === 'tool' ? callTool(request) : sendMessage(request),
        ),
        { seed: fuzzSeed, numRuns: cases, endOnFailure: true },
      )
      .catch(recordFailure(figures));
    expect(figures.failures).toEqual([]);
  }, 3_600_000);

  it('loses nothing of another workspace', async () => {
    await jobsSettled(configured.earshot.sql);
    expect(await workspaceRows(configured.earshot.sql, bystander.workspaceId)).toEqual(bystanderRows);
  }, 120_000);
});
