import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorFromGraphQL } from '../rest-facade/error-envelope.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

const maxBodyBytes = 256;
let earshot: TestEarshot;
let key: string;

beforeAll(async () => {
  earshot = await startTestEarshot({ maxBodyBytes });
  key = (await earshot.createWorkspace('Facade')).apiKey;
});
afterAll(() => earshot?.stop());

const generatedRequestId = /^req_[0-9a-f]{32}$/;

/** An error response as the spec's envelope (part 7): `requestId` is the `X-Request-Id` header. */
function expectEnvelope(response: { status: number; headers: Headers; body: any }, status: number, error: Record<string, unknown>) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual({ error: { message: expect.any(String), requestId: response.headers.get('x-request-id'), ...error } });
}

describe('X-Request-Id', () => {
  it.each([
    ['8 characters', 'abcd-_12'],
    ['64 characters', 'x'.repeat(64)],
  ])('echoes an acceptable inbound id (%s), on success and on errors', async (_label, requestId) => {
    const ok = await earshot.rest('GET', '/v1/whoami', { key, headers: { 'x-request-id': requestId } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe(requestId);

    const refused = await earshot.rest('GET', '/v1/whoami', { headers: { 'x-request-id': requestId } });
    expectEnvelope(refused, 401, { code: 'unauthorized', requestId });
  });

  it.each([
    ['too short', 'abc1234'],
    ['too long', 'x'.repeat(65)],
    ['not URL-safe', 'has spaces in it'],
    ['not URL-safe', 'dots.are.not.ok'],
  ])('replaces an inbound id that is %s (%s) with a new one', async (_label, requestId) => {
    const ok = await earshot.rest('GET', '/v1/health', { headers: { 'x-request-id': requestId } });
    expect(ok.headers.get('x-request-id')).toMatch(generatedRequestId);

    const refused = await earshot.rest('GET', '/v1/whoami', { headers: { 'x-request-id': requestId } });
    expect(refused.headers.get('x-request-id')).toMatch(generatedRequestId);
    expectEnvelope(refused, 401, { code: 'unauthorized' });
  });

  it('makes a new, different id for each request that brings none', async () => {
    const first = await earshot.rest('GET', '/v1/whoami', { key });
    const second = await earshot.rest('GET', '/v1/whoami', { key });
    expect(first.headers.get('x-request-id')).toMatch(generatedRequestId);
    expect(second.headers.get('x-request-id')).toMatch(generatedRequestId);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('is echoed by GraphQL responses too', async () => {
    const response = await fetch(`${earshot.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-request-id': 'graphql-request-1' },
      body: JSON.stringify({ query: '{ whoami { workspace { name } } }' }),
    });
    expect(response.headers.get('x-request-id')).toBe('graphql-request-1');
    expect(await response.json()).toEqual({ data: { whoami: { workspace: { name: 'Facade' } } } });

    const refused = await fetch(`${earshot.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'graphql-request-2' },
      body: JSON.stringify({ query: '{ whoami { workspace { name } } }' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('graphql-request-2');
  });
});

describe('X-Request-Id beyond the APIs', () => {
  it('is on every answer of the public port: the OAuth documents and endpoints and the dashboard too', async () => {
    const answers = [
      await fetch(`${earshot.url}/.well-known/oauth-authorization-server`, { headers: { 'x-request-id': 'oauth-metadata-1' } }),
      await fetch(`${earshot.url}/.well-known/oauth-protected-resource/mcp`, { headers: { 'x-request-id': 'oauth-metadata-2' } }),
      await fetch(`${earshot.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'oauth-register' }, body: '{}' }),
      await fetch(`${earshot.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'oauth-token-1' }, body: 'grant_type=nothing' }),
      await fetch(`${earshot.url}/keywords`, { headers: { 'x-request-id': 'dashboard-page' } }),
    ];
    expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual(['oauth-metadata-1', 'oauth-metadata-2', 'oauth-register', 'oauth-token-1', 'dashboard-page']);
    const generated = await fetch(`${earshot.url}/.well-known/oauth-authorization-server`);
    expect(generated.headers.get('x-request-id')).toMatch(generatedRequestId);
  });
});

describe('error envelope', () => {
  it('answers unknown routes with 404 not_found, known paths with another method included', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['PUT', '/v1/whoami'],
      ['POST', '/v2/whoami'],
      ['GET', '/v1'],
      // Other GETs are the dashboard's (test/dashboard-serving.test.ts); other methods are not.
      ['POST', '/'],
    ]) {
      expectEnvelope(await earshot.rest(method, path, { key }), 404, { code: 'not_found' });
    }
  });

  it('answers a missing or unknown key with 401 unauthorized', async () => {
    expectEnvelope(await earshot.rest('GET', '/v1/api-keys'), 401, { code: 'unauthorized' });
    expectEnvelope(await earshot.rest('GET', '/v1/api-keys', { key: 'mk_live_nope' }), 401, { code: 'unauthorized' });
    expectEnvelope(
      await earshot.rest('GET', '/v1/api-keys', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
      401,
      { code: 'unauthorized' },
    );
  });

  it('answers HEAD wherever it answers GET, with the status and headers of the GET and no body (RFC 9110 9.1)', async () => {
    for (const [path, credential] of [['/v1/health', undefined], ['/v1/keywords', key], ['/v1/mentions/export.csv', key], ['/v1/keywords', undefined]] as const) {
      const got = await earshot.rest('GET', path, { key: credential });
      const head = await earshot.rest('HEAD', path, { key: credential });
      expect([head.status, head.body, head.headers.get('content-type')], path).toEqual([got.status, undefined, got.headers.get('content-type')]);
      expect(head.headers.get('x-request-id'), path).toMatch(/^req_/);
      if (path.endsWith('.csv')) expect(head.headers.get('x-mentions-truncated')).toBe('false');
    }
  });

  it('names the bearer challenge on every 401 (RFC 9110 11.6.1), with invalid_token when a credential was refused', async () => {
    const missing = await earshot.rest('GET', '/v1/keywords');
    expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="earshot"']);
    const refused = await earshot.rest('GET', '/v1/keywords', { key: 'mk_live_nope' });
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="earshot", error="invalid_token"']);
    const answered = await earshot.rest('GET', '/v1/keywords', { key });
    expect([answered.status, answered.headers.get('www-authenticate')]).toEqual([200, null]);
    const documented = (await earshot.rest('GET', '/v1/openapi.json')).body.paths['/v1/keywords'].get.responses['401'];
    expect(Object.keys(documented.headers)).toContain('WWW-Authenticate');
  });

  it('answers malformed JSON with 400 validation_error and stores nothing', async () => {
    // lastUsedAt moves with the requests themselves (written at most every few seconds), so it is left out.
    const storedKeys = async () =>
      (await earshot.rest('GET', '/v1/api-keys', { key })).body.data.map(({ lastUsedAt, ...stored }: { lastUsedAt: string | null }) => stored);
    const before = await storedKeys();
    for (const body of ['{"name":', 'not json', '[1, 2]', '"a string"']) {
      expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key, body }), 400, { code: 'validation_error', field: null });
    }
    expect(await storedKeys()).toEqual(before);
  });

  it('answers fields of the wrong type or unknown fields with 400 validation_error naming the field', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 5 } }), 400, { code: 'validation_error', field: 'name' });
    expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'x', colour: 'red' } }), 400, {
      code: 'validation_error',
      field: 'colour',
    });
  });

  it('checks the credential before the body: an unknown key with a malformed body is 401', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key: 'mk_live_nope', body: '{' }), 401, { code: 'unauthorized' });
  });

  it('answers a body over the limit with 413 payload_too_large, declared or streamed', async () => {
    const name = 'n'.repeat(maxBodyBytes);
    expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key, body: { name } }), 413, { code: 'payload_too_large' });

    // A stream has no Content-Length, so the limit must hold while reading.
    const bytes = new TextEncoder().encode(JSON.stringify({ name }));
    const streamed = await fetch(`${earshot.url}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          // 16 MB more in many chunks: refused with a 413, not a dropped connection.
          for (let i = 0; i < 1000; i++) controller.enqueue(new Uint8Array(16 * 1024).fill(32));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expectEnvelope({ status: streamed.status, headers: streamed.headers, body: await streamed.json() }, 413, { code: 'payload_too_large' });

    const justUnder = await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'n'.repeat(maxBodyBytes - 20) } });
    expect(justUnder.status).toBe(400);
    expect(justUnder.body.error).toMatchObject({ code: 'validation_error', field: 'name' });
  });
});

describe('an unexpected failure', () => {
  it('is a 500 internal_error whose message tells nothing of the cause', async () => {
    // Breaks the key list's query (and nothing authentication reads) for the length of this test.
    await earshot.sql`alter table api_keys rename column prefix to prefix_hidden`;
    try {
      const response = await earshot.rest('GET', '/v1/api-keys', { key });
      expectEnvelope(response, 500, { code: 'internal_error', message: 'Something went wrong on our side' });
      expect(JSON.stringify(response.body)).not.toMatch(/prefix|column|postgres/i);
    } finally {
      await earshot.sql`alter table api_keys rename column prefix_hidden to prefix`;
    }
  });
});

describe('apiErrorFromGraphQL', () => {
  it('keeps a known code with its message, field and retryAfterSeconds', () => {
    expect(
      apiErrorFromGraphQL({ message: 'Slow down', extensions: { code: 'rate_limited', retryAfterSeconds: 12, http: { status: 429 } } }),
    ).toEqual({ code: 'rate_limited', message: 'Slow down', retryAfterSeconds: 12, field: undefined });
    expect(apiErrorFromGraphQL({ message: 'name: must not be empty', extensions: { code: 'validation_error', field: 'name' } })).toEqual({
      code: 'validation_error',
      message: 'name: must not be empty',
      retryAfterSeconds: undefined,
      field: 'name',
    });
  });

  it('turns an error without a code into a generic 500 internal_error that leaks nothing', () => {
    for (const error of [
      { message: 'connect ECONNREFUSED 127.0.0.1:5432' },
      { message: 'relation "secrets" does not exist', extensions: { code: '42P01' } },
      { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]) {
      expect(apiErrorFromGraphQL(error)).toEqual({ code: 'internal_error', message: 'Something went wrong on our side' });
    }
  });

  it.each([
    ['Variable "$input" got invalid value 5 at "input.name"; String cannot represent a non string value: 5', 'name', 'name: expected a string, got a number'],
    [
      'Variable "$input" got invalid value "admin" at "input.scope"; Value "admin" does not exist in "ApiKeyScope" enum. Did you mean the enum value "read"?',
      'scope',
      'scope: "admin" is not one of the allowed values; did you mean "read"?',
    ],
    [
      'Variable "$input" got invalid value 1 at "input.platforms[0]"; Enum "Platform" cannot represent non-string value: 1.',
      'platforms.0',
      'platforms.0: expected one of the allowed strings, got a number',
    ],
    ['Variable "$input" got invalid value { scope: "read" }; Field "name" of required type "String!" was not provided.', 'name', 'name: is required'],
    ['Variable "$input" got invalid value { x: 1 } at "input.matching"; Field "x" is not defined by type "MatchingInput".', 'matching.x', 'matching.x: unknown field'],
    [
      'Variable "$input" got invalid value { nme: "a" }; Field "nme" is not defined by type "CreateKeywordInput". Did you mean "name"?',
      'nme',
      'nme: unknown field; did you mean "name"?',
    ],
    ['Variable "$input" got invalid value 1.5 at "input.cap.mentions"; Int cannot represent non-integer value: 1.5', 'cap.mentions', 'cap.mentions: must be a whole number'],
    [
      'Variable "$input" got invalid value 1e+21 at "input.amountCents"; Int cannot represent non 32-bit signed integer value: 1e+21',
      'amountCents',
      'amountCents: must be a whole number from -2147483648 to 2147483647',
    ],
    ['Variable "$input" got invalid value "yes" at "input.muted"; Boolean cannot represent a non boolean value: "yes"', 'muted', 'muted: expected true or false, got a string'],
    ['Variable "$input" got invalid value null at "input.name"; Expected non-nullable type "String!" not to be null.', 'name', 'name: must not be null'],
    ['Variable "$input" got invalid value [] at "input.cap"; Expected type "CapInput" to be an object.', 'cap', 'cap: expected an object'],
    ['Variable "$id" got invalid value 5; ID cannot represent value: 5', null, 'expected a string, got a number'],
  ])('words the coercion error %j about the JSON sent, on field %j', (message, field, expected) => {
    expect(apiErrorFromGraphQL({ message })).toEqual({ code: 'validation_error', message: expected, field });
  });
});
