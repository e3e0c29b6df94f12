import fc from 'fast-check';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { countOutcome, fuzzScale, fuzzSeed, longestUrl, newFigures, onceMoreWhenOverloaded, recordFailure, recordFigures } from './fuzz/fuzz-run.ts';
import { type GraphQLValueContext, hostileDocument, operationFor, type RootField, rootFields, variablesFor } from './fuzz/graphql-operations.ts';
import { hostileBodyText, hostileValue } from './fuzz/hostile-values.ts';
import { stray } from './fuzz/schema-arbitraries.ts';
import { catalogueIds, withoutCredentials } from './id-catalogue.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';
import { jobsSettled, workspaceRows } from './workspace-rows.ts';

/**
 * `/graphql` under generated load: every root field of the committed
 * supergraph (queries, mutations, subscriptions) called with valid,
 * near-valid and hostile variables, plus hostile documents (deep, wide,
 * cyclic, huge, broken) and hostile request envelopes, over HTTP and
 * graphql-ws. No answer may be a 5xx, every error must carry a string
 * `extensions.code` that is not `internal_error`, and no other workspace's
 * stored rows may change.
 */

const cases = 100 * fuzzScale;

let configured: ConfiguredEarshot;
let fuzzed: SeededWorkspace;
let bystander: SeededWorkspace;
let bystanderRows: Record<string, unknown[]>;
let values: GraphQLValueContext;
let socket: Client;
const figures = newFigures('GraphQL: /graphql over HTTP and graphql-ws');
const fields = rootFields();

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 });
  fuzzed = await seedEveryObject(configured, 'Fuzzed');
  bystander = await seedEveryObject(configured, 'Bystander');
  const document = (await configured.earshot.rest('GET', '/v1/openapi.json')).body;
  const known = withoutCredentials(await catalogueIds(document, (method, path, body) => configured.earshot.rest(method, path, { key: fuzzed.apiKey, body })));
  values = { ids: known.ids, integerIds: known.integerIds };
  socket = createClient({
    url: `${configured.earshot.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${fuzzed.apiKey}` },
    retryAttempts: 5,
    lazy: true,
  });
  await jobsSettled(configured.earshot.sql);
  bystanderRows = await workspaceRows(configured.earshot.sql, bystander.workspaceId);
}, 240_000);
afterAll(async () => {
  recordFigures('fuzz-graphql', figures);
  await socket?.dispose();
  await configured?.stop();
});

interface GraphQLCase {
  transport: 'POST' | 'GET' | 'raw POST' | 'other method' | 'graphql-ws';
  accept: string;
  contentType: string;
  query: string;
  variables: unknown;
  operationName?: unknown;
  /** For `raw POST`: the body as sent. */
  raw?: string;
  credential: 'write key' | 'read key' | 'session' | 'none';
}

const operationCase = (root: RootField): fc.Arbitrary<Pick<GraphQLCase, 'query' | 'variables'>> =>
  stray.chain((how) => variablesFor(root.field.args, how, values).map((variables) => ({ query: operationFor(root), variables })));

const documentCase: fc.Arbitrary<Pick<GraphQLCase, 'query' | 'variables' | 'operationName'>> = fc.record({
  query: hostileDocument,
  variables: fc.oneof(fc.constant({}), fc.dictionary(fc.constantFrom('id', 'a', '__proto__'), hostileValue, { maxKeys: 2 }), hostileValue),
  operationName: fc.option(fc.oneof(fc.constantFrom('A', 'B', ''), hostileValue), { nil: undefined }),
});

const graphqlCase: fc.Arbitrary<GraphQLCase> = fc
  .record({
    document: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields).chain(operationCase) }, { weight: 1, arbitrary: documentCase }),
    transport: fc.oneof(
      { weight: 12, arbitrary: fc.constant<GraphQLCase['transport']>('POST') },
      { weight: 2, arbitrary: fc.constant<GraphQLCase['transport']>('graphql-ws') },
      { weight: 1, arbitrary: fc.constantFrom<GraphQLCase['transport']>('GET', 'raw POST', 'other method') },
    ),
    accept: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom('application/graphql-response+json', 'multipart/mixed', 'text/event-stream', 'text/html', '*/*', '', 'application/json;q=0, text/plain') },
    ),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom('application/graphql', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', 'application/json; charset=latin1', '') },
    ),
    raw: hostileBodyText,
    credential: fc.oneof({ weight: 10, arbitrary: fc.constant<GraphQLCase['credential']>('write key') }, { weight: 1, arbitrary: fc.constantFrom<GraphQLCase['credential']>('read key', 'session', 'none') }),
  })
  .map(({ document, transport, raw, credential, accept, contentType }) => ({ ...document, transport, credential, accept, contentType, ...(transport === 'raw POST' ? { raw } : {}) }));

function credentialHeaders(credential: GraphQLCase['credential']): Record<string, string> {
  if (credential === 'write key') return { authorization: `Bearer ${fuzzed.apiKey}` };
  if (credential === 'read key') return { authorization: `Bearer ${fuzzed.readKey}` };
  if (credential === 'session') return { cookie: fuzzed.session.cookie, 'x-csrf-token': fuzzed.session.csrfToken };
  return {};
}

/** The rule every GraphQL error meets: a message and a string code, never the code of a failure on our side. */
function checkErrors(errors: unknown, where: string): void {
  expect(Array.isArray(errors), where).toBe(true);
  for (const error of errors as { message?: unknown; extensions?: { code?: unknown } }[]) {
    expect(typeof error.message, where).toBe('string');
    expect(typeof error.extensions?.code, where).toBe('string');
    expect(error.extensions!.code, where).not.toMatch(/^(internal_error|INTERNAL_SERVER_ERROR|DOWNSTREAM_SERVICE_ERROR)$/);
  }
}

async function overHttp(request: GraphQLCase): Promise<void> {
  const { earshot } = configured;
  const headers = { accept: request.accept, ...credentialHeaders(request.credential) };
  const body = JSON.stringify({ query: request.query, variables: request.variables, ...(request.operationName !== undefined ? { operationName: request.operationName } : {}) });
  const search = new URLSearchParams({ query: request.query, variables: JSON.stringify(request.variables) ?? '' }).toString();
  // A document too long for a URL goes in a body, as a client would send it.
  const overGet = request.transport === 'GET' && search.length <= longestUrl;
  const send = async () => {
    const response = overGet
      ? await fetch(`${earshot.url}/graphql?${search}`, { headers })
      : await fetch(`${earshot.url}/graphql`, {
          method: request.transport === 'other method' ? 'PUT' : 'POST',
          headers: { ...headers, 'content-type': request.contentType },
          body: request.raw ?? body,
        });
    const type = response.headers.get('content-type') ?? '';
    const streamed = type.startsWith('text/event-stream') || type.startsWith('multipart/mixed');
    return { response, streamed, text: streamed ? await openingOf(response) : await response.text() };
  };
  const { response, streamed, text } = await onceMoreWhenOverloaded(figures, send, (answer) => answer.response.status === 503 || answer.text.includes('"service_unavailable"'));
  countOutcome(figures, response.status);
  const where = `${request.transport} [${request.credential}, accept ${request.accept}, ${request.contentType}] ${(request.raw ?? body).slice(0, 400)} → ${response.status} ${text.slice(0, 400)}`;
  expect(response.status, where).toBeLessThan(500);
  if (response.status < 300 && !text) return;
  const payloads: any[] = [];
  expect(() => payloads.push(...(streamed ? streamedPayloads(text) : [JSON.parse(text)])), where).not.toThrow();
  // A live subscription that has sent nothing yet was accepted; anything refused says why in its first payload.
  if (streamed && response.status < 300 && !payloads.length) return;
  expect(payloads.length, where).toBeGreaterThan(0);
  for (const payload of payloads) {
    expect('data' in payload || 'errors' in payload, where).toBe(true);
    if (payload.errors) checkErrors(payload.errors, where);
  }
  if (response.status >= 400) expect(payloads[0].errors?.length, where).toBeGreaterThan(0);
}

/**
 * What a streamed answer (a subscription, or any result asked for as
 * text/event-stream or multipart/mixed) says first: a live stream runs until
 * the client goes, so it is read until its first payload is complete, or a
 * moment has passed with none.
 */
async function openingOf(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const quiet = new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), 1_000));
  for (;;) {
    const chunk = await Promise.race([reader.read(), quiet]);
    if (chunk === 'quiet' || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    if (streamedPayloads(text).length) break;
  }
  await reader.cancel();
  return text;
}

/** The JSON payloads of an event stream (`data:` lines of `next` events) or of a multipart answer (each part's body), complete ones only. */
function streamedPayloads(text: string): any[] {
  if (text.includes('\r\n---')) {
    return text
      .split(/\r\n-{3,}/)
      .slice(0, -1)
      .map((part) => part.split('\r\n\r\n')[1])
      .filter((body): body is string => !!body?.trim())
      .map((body) => JSON.parse(body));
  }
  return text
    .split('\n\n')
    .slice(0, -1)
    .flatMap((event) => event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length)))
    .filter((data) => data.trim())
    .map((data) => JSON.parse(data));
}

/** A subscription (or any operation) over graphql-ws: it ends with a result, a complete, or errors, never a closed socket. */
/** Variables the graphql-ws client sends at all: it refuses, before sending, a `subscribe` whose variables are not an object (HTTP cases send those). */
const sendableOverSocket = (variables: unknown) => variables === null || variables === undefined || (typeof variables === 'object' && !Array.isArray(variables));

async function overWebSocketTransport(request: GraphQLCase): Promise<void> {
  const where = `graphql-ws ${JSON.stringify({ query: request.query, variables: request.variables }).slice(0, 400)}`;
  const outcome = await new Promise<{ errors?: unknown; closed?: unknown }>((resolve) => {
    let first = true;
    const stop = socket.subscribe(
      { query: request.query, variables: request.variables as Record<string, unknown> },
      {
        next: (result) => {
          if (!first) return;
          first = false;
          if (result.errors) resolve({ errors: result.errors });
          else resolve({});
          stop();
        },
        error: (error) => resolve(Array.isArray(error) ? { errors: error } : { closed: error }),
        complete: () => resolve({}),
      },
    );
    // A live subscription with no event yet answered the case: it was accepted.
    setTimeout(() => {
      stop();
      resolve({});
    }, 300);
  });
  countOutcome(figures, outcome.closed ? 'graphql-ws closed' : outcome.errors ? 'graphql-ws errors' : 'graphql-ws ok');
  expect(outcome.closed, where).toBeUndefined();
  if (outcome.errors) checkErrors(outcome.errors, where);
}

describe('a seeded fuzz run over every root field of the supergraph', () => {
  it('answers no operation with a 5xx, and every error with a code', async () => {
    await fc
      .assert(
        fc.asyncProperty(graphqlCase, async (request) => {
          if (request.transport === 'graphql-ws') {
            if (request.credential === 'write key' && request.query.length < 100_000 && sendableOverSocket(request.variables)) await overWebSocketTransport(request);
            return;
          }
          await overHttp(request);
        }),
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
