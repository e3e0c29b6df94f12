import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelopeSchema, statusForCode } from '../rest-facade/error-envelope.ts';
import { octolensErrorSchema } from '../rest-facade/octolens/octolens-errors.ts';
import { routeTables } from '../rest-facade/route-table.ts';
import { clippedForUrl, countOutcome, fuzzScale, fuzzSeed, longestUrl, newFigures, onceMoreWhenOverloaded, recordFailure, recordFigures } from './fuzz/fuzz-run.ts';
import { hostileBodyText, hostilePathSegment, hostileString, percentEncoded, unknownFieldName } from './fuzz/hostile-values.ts';
import { type JsonSchema, resolveSchema, type SchemaContext, type Stray, stray, strayingValue } from './fuzz/schema-arbitraries.ts';
import { type ApiOperation, catalogueIds, type IdCatalogue, isPublicOperation, isReadOperation, operationsOf, pathParametersOf, withoutCredentials } from './id-catalogue.ts';
import { type ConfiguredEarshot, type SeededWorkspace, seedEveryObject, startConfiguredEarshot } from './workspace-with-everything.ts';
import { recordingLogger } from './harness.ts';
import { jobsSettled, workspaceRows } from './workspace-rows.ts';

/**
 * Every operation of the published OpenAPI document, `/v1` and the
 * compatibility API alike, gets seeded requests built from its own schemas:
 * valid ones (reaching stored records through real ids), near-valid ones (a
 * bound crossed by one, a wrong type, an unknown or missing field) and
 * hostile ones (huge, Unicode, NUL, lone surrogates, SQL and path fragments,
 * deep nesting, broken JSON), under each kind of credential. None may fail on
 * our side (5xx), every refusal must be the table's documented envelope, and
 * no other workspace's stored rows may change. `npm test` runs a few hundred;
 * `npm run fuzz` many thousands (README "Fuzzing").
 */

const casesPerOperation = 2 * fuzzScale;

let configured: ConfiguredEarshot;
let fuzzed: SeededWorkspace;
let bystander: SeededWorkspace;
let bystanderRows: Record<string, unknown[]>;
let document: any;
let known: IdCatalogue;
const figures = newFigures('REST: /v1 and the compatibility API');
/** Every line Earshot logs while it is seeded and fuzzed, debug level included. */
const logged = recordingLogger();

beforeAll(async () => {
  configured = await startConfiguredEarshot({ rateLimitPerMinute: 100_000_000 }, { log: logged.log });
  fuzzed = await seedEveryObject(configured, 'Fuzzed');
  bystander = await seedEveryObject(configured, 'Bystander');
  document = (await configured.earshot.rest('GET', '/v1/openapi.json')).body;
  known = withoutCredentials(await catalogueIds(document, (method, path, body) => configured.earshot.rest(method, path, { key: fuzzed.apiKey, body })));
  await jobsSettled(configured.earshot.sql);
  bystanderRows = await workspaceRows(configured.earshot.sql, bystander.workspaceId);
}, 240_000);
afterAll(async () => {
  recordFigures('fuzz-rest', figures);
  await configured?.stop();
});

/** What a request carries as its credential. */
type Credential = 'write key' | 'read key' | 'session' | 'session without CSRF' | 'OAuth token' | 'revoked-looking key' | 'none';

interface FuzzRequest {
  path: string;
  method: string;
  credential: Credential;
  contentType: string | undefined;
  body: string | undefined;
  requestId: string | undefined;
}

const context = (): SchemaContext => ({
  components: document.components.schemas,
  idsFor: () => [...known.ids, ...known.integerIds],
});

/** A path parameter: a real id of any kind, one of the right shape that names nothing, or a hostile segment. */
function pathSegment(how: Stray): fc.Arbitrary<string> {
  if (how === 'valid') return fc.constantFrom(...known.ids, ...known.integerIds.map(String));
  if (how === 'near-valid') {
    return fc.oneof(
      fc.constantFrom(...known.ids).map((id) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`),
      fc.constantFrom('0', '-1', '2147483648', '9007199254740993', '1.5', 'kw_', 'MM_01JD8X3M5C2V7Q9R4T6W8Y0Z1A'),
    );
  }
  return hostilePathSegment;
}

/** A query string value: lists travel comma-separated, as the filters take them. */
const queryText = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.map(queryText).join(',') : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);

function queryFor(operation: any, how: Stray): fc.Arbitrary<[string, string][]> {
  const parameters: any[] = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'query');
  const sent = parameters.map((parameter) =>
    fc.option(strayingValue(parameter.schema, context(), how, parameter.name).map((value): [string, string] => [parameter.name, queryText(value)]), { nil: undefined, freq: 2 }),
  );
  const extra = how === 'valid' ? fc.constant([]) : fc.array(fc.tuple(unknownFieldName, hostileString), { maxLength: 1 });
  return fc.tuple(fc.tuple(...sent), extra).map(([pairs, more]) => [...pairs.filter((pair): pair is [string, string] => pair !== undefined), ...more]);
}

function bodyFor(method: string, operation: any, how: Stray): fc.Arbitrary<{ contentType: string | undefined; body: string | undefined }> {
  const content = operation.requestBody?.content ?? {};
  if (content['application/x-www-form-urlencoded']) {
    return fc.oneof(hostileString, fc.string()).map((payload) => ({ contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams({ payload }).toString() }));
  }
  const schema: JsonSchema | undefined = content['application/json']?.schema;
  if (!schema) {
    if (method === 'get' || method === 'delete' || how === 'valid') return fc.constant({ contentType: undefined, body: undefined });
    return hostileBodyText.map((body) => ({ contentType: 'application/json', body }));
  }
  const json = strayingValue(resolveSchema(schema, context()), context(), how).map((value) => JSON.stringify(value) ?? 'null');
  const text = how === 'hostile' ? fc.oneof({ weight: 3, arbitrary: json }, { weight: 1, arbitrary: hostileBodyText }) : json;
  return text.map((body) => ({ contentType: 'application/json', body }));
}

const credentials = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Credential>('write key') },
  { weight: 1, arbitrary: fc.constantFrom<Credential>('read key', 'session', 'session without CSRF', 'OAuth token', 'revoked-looking key', 'none') },
);

function requestsFor({ path, method, operation }: ApiOperation): fc.Arbitrary<FuzzRequest> {
  const names = pathParametersOf(path);
  return stray.chain((how) =>
    fc
      .record({
        segments: fc.tuple(...names.map(() => pathSegment(how))),
        query: queryFor(operation, how),
        body: bodyFor(method, operation, how),
        credential: credentials,
        // Only what a client can put in a header at all: Latin-1 without line breaks.
        requestId: fc.option(fc.oneof(fc.constantFrom('req-12345678', 'a'.repeat(65), 'bad id x', 'é'), hostileString.map((text) => percentEncoded(text).slice(0, 300))), { freq: 8, nil: undefined }),
      })
      .map(({ segments, query, body, credential, requestId }) => {
        let filled = path;
        // Segments are percent-encoded already (whole `%XX` escapes, so a cut at a multiple of 3 keeps them whole); query values share the rest.
        for (const [index, name] of names.entries()) filled = filled.replace(`{${name}}`, segments[index].slice(0, longestUrl / 4));
        const share = Math.floor((longestUrl - filled.length) / Math.max(1, query.length)) - 100;
        const search = new URLSearchParams(query.map(([name, value]) => [name, clippedForUrl(value, share)])).toString();
        return { path: search ? `${filled}?${search}` : filled, method, credential, ...body, requestId };
      }),
  );
}

function credentialHeaders(credential: Credential, method: string): Record<string, string> {
  switch (credential) {
    case 'write key':
      return { authorization: `Bearer ${fuzzed.apiKey}` };
    case 'read key':
      return { authorization: `Bearer ${fuzzed.readKey}` };
    case 'OAuth token':
      return { authorization: `Bearer ${fuzzed.oauthToken}` };
    case 'session':
      return { cookie: fuzzed.session.cookie, ...(method === 'get' ? {} : { 'x-csrf-token': fuzzed.session.csrfToken }) };
    case 'session without CSRF':
      return { cookie: fuzzed.session.cookie };
    case 'revoked-looking key':
      return { authorization: `Bearer mk_live_${'0'.repeat(43)}` };
    case 'none':
      return {};
  }
}

/** The envelopes with nothing beside their documented fields: `/v1`'s, and the compatibility API's. */
const strictEnvelope = z.strictObject({ error: errorEnvelopeSchema.shape.error.strict() });
const strictOctolensEnvelope = z.strictObject({ error: octolensErrorSchema.shape.error.strict() });

/** Sends one request and checks the answer; throws (naming the request) when a rule is broken. */
async function sendAndCheck(entry: ApiOperation, request: FuzzRequest): Promise<void> {
  const { earshot } = configured;
  const send = () =>
    fetch(earshot.url + request.path, {
      method: request.method.toUpperCase(),
      headers: {
        ...credentialHeaders(request.credential, request.method),
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
        ...(request.requestId ? { 'x-request-id': request.requestId } : {}),
      },
      body: request.body,
    });
  const response = await onceMoreWhenOverloaded(figures, send, (answer) => answer.status === 503);
  const text = await response.text();
  countOutcome(figures, response.status);
  const requestId = response.headers.get('x-request-id');
  const where = `${request.method.toUpperCase()} ${request.path.slice(0, 200)} [${request.credential}] ${String(request.body).slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
  const compat = entry.path.startsWith('/compat/');
  // A feature the compatibility API does not offer is its one deliberate 5xx (spec 4.8).
  const featureDisabled = response.status === 501 && compat && JSON.parse(text).error.code === 'FEATURE_DISABLED';
  if (!featureDisabled) expect(response.status, where).toBeLessThan(500);
  expect(requestId, where).toBeTruthy();
  expect(Object.keys(entry.operation.responses).map(Number), where).toContain(response.status);
  if (response.status < 400) return;
  expect(response.headers.get('content-type'), where).toBe('application/json; charset=utf-8');
  if (compat) {
    const envelope = strictOctolensEnvelope.safeParse(JSON.parse(text));
    expect(envelope.success, where).toBe(true);
    expect(envelope.data!.error.code, where).toMatch(/^[A-Z_]+$/);
    expect(envelope.data!.error.status, where).toBe(response.status);
    return;
  }
  const envelope = strictEnvelope.safeParse(JSON.parse(text));
  expect(envelope.success, where).toBe(true);
  const { error } = envelope.data!;
  expect(error.requestId, where).toBe(requestId);
  expect(statusForCode(error.code), where).toBe(response.status);
}

describe('a seeded fuzz run over every operation of openapi.json', () => {
  it('covers every route of both tables', () => {
    expect(operationsOf(document)).toHaveLength(routeTables.flatMap((table) => table.routes).length);
  });

  it('answers no request with a 5xx, and every refusal in its table’s documented envelope', async () => {
    for (const entry of operationsOf(document)) {
      await fc
        .assert(
          fc.asyncProperty(requestsFor(entry), (request) => sendAndCheck(entry, request)),
          { seed: fuzzSeed, numRuns: casesPerOperation, endOnFailure: true },
        )
        .catch(recordFailure(figures, `${entry.method.toUpperCase()} ${entry.path}: `));
    }
    expect(figures.failures).toEqual([]);
  }, 3_600_000);

  it('loses nothing: another workspace’s rows are as they were, and every read of the fuzzed one still answers', async () => {
    await jobsSettled(configured.earshot.sql);
    expect(await workspaceRows(configured.earshot.sql, bystander.workspaceId)).toEqual(bystanderRows);
    const unreadable: string[] = [];
    for (const entry of operationsOf(document).filter((each) => isReadOperation(each) && !isPublicOperation(each) && pathParametersOf(each.path).length === 0)) {
      const answer = await configured.earshot.rest(entry.method.toUpperCase(), entry.path, { key: fuzzed.apiKey, body: entry.method === 'get' ? undefined : {} });
      if (answer.status >= 500 && !(answer.status === 501 && answer.body?.error?.code === 'FEATURE_DISABLED')) unreadable.push(`${entry.method} ${entry.path} → ${answer.status}`);
    }
    expect(unreadable).toEqual([]);
  }, 120_000);

  // Keys, passwords, tokens and channel secrets pass through requests and failures of every kind here: none may be written down.
  it('writes no secret into any log line', () => {
    const secrets = [...configured.configuredSecrets, ...fuzzed.secrets, ...bystander.secrets];
    const lines = logged.lines.map((line) => JSON.stringify(line));
    expect(lines.length).toBeGreaterThan(0);
    expect(secrets.flatMap((secret) => lines.filter((line) => line.includes(secret)).map((line) => `${secret.slice(0, 12)}… in ${line.slice(0, 300)}`))).toEqual([]);
  });
});
