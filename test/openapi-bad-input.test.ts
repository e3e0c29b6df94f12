import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelopeSchema, statusForCode } from '../rest-facade/error-envelope.ts';
import { octolensErrorSchema } from '../rest-facade/octolens/octolens-errors.ts';
import { routeTables } from '../rest-facade/route-table.ts';
import { startFakeStripe, type FakeStripe } from './fake-upstreams/stripe.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

/**
 * A new user's first hour, replayed: every operation of the published
 * OpenAPI document gets a seeded batch of malformed requests (odd ids, bad
 * query values, unknown parameters, bodies of the wrong shape) with a valid
 * key. None may fail on our side (5xx), and every refusal must be the
 * documented envelope whose `requestId` is the `X-Request-Id` header.
 */

const seed = 20_240_610;
const runsPerOperation = 30;

let earshot: TestEarshot;
let stripe: FakeStripe;
let key: string;
let document: any;

beforeAll(async () => {
  // Every integration configured, so no route may answer 501 for a missing setting.
  stripe = await startFakeStripe();
  earshot = await startTestEarshot({
    rateLimitPerMinute: 1_000_000,
    env: {
      EARSHOT_STRIPE_SECRET_KEY: stripe.secretKey,
      EARSHOT_STRIPE_WEBHOOK_SECRET: 'whsec_bad_input_run',
      EARSHOT_UPSTREAM_STRIPE: stripe.url,
      EARSHOT_PUBLIC_URL: 'https://app.example',
      EARSHOT_SLACK_CLIENT_ID: '1.2',
      EARSHOT_SLACK_CLIENT_SECRET: 'bad-input-run',
      EARSHOT_SLACK_SIGNING_SECRET: 'bad-input-run',
      // No generated state is ever signed, so Slack is never called; a closed port if it were.
      EARSHOT_UPSTREAM_SLACK: 'http://127.0.0.1:9',
    },
  });
  key = (await earshot.createWorkspace('Bad input')).apiKey;
  document = (await earshot.rest('GET', '/v1/openapi.json')).body;
});
afterAll(async () => {
  await earshot?.stop();
  await stripe?.close();
});

/** Percent-encodes every UTF-8 byte, so any string travels in a path segment as is. */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

const oddId = fc.oneof(
  fc.constantFrom(
    '%00',
    'kw_%00',
    '%E0%A4%A',
    '%',
    '%FF',
    '%ED%A0%80',
    '%C0%AF',
    'k'.repeat(3000),
    '%F0%9F%98%80',
    '..%2F..%2Fetc%2Fpasswd',
    '..',
    "1'%20OR%20'1'%3D'1",
    '1%3B%20drop%20table%20keywords',
    '%20',
    'null',
    '-1',
    '1e400',
    'kw_01jd8x3m5c2v7q9r4t6w8y0z1a',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(percentEncoded),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
);

const badText = fc.oneof(
  fc.constantFrom('myspace', 'yesterday', 'angry', '-1', '0', '1.5', 'abc', '1e400', '9'.repeat(40), 'true,false', '', ' ', ',', 'null', '%', 'a\u0000b', '2028-13-45', 'x'.repeat(3000)),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const unknownParameter = fc.constantFrom('since', 'sentiment', 'q', 'foo', 'LIMIT', '__proto__', 'constructor', 'toString', 'a\u0000');

const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    'reddit', '', ' ', 'a\u0000b', ['\u0000'], 1e308, -1, 0, 1.5, 2 ** 53, -(2 ** 31) - 1, 2 ** 31, true, false, null, [], {}, [null], [[[]]],
    { unknown: 1 }, 'x'.repeat(5000), '2028-13-45', 'javascript:alert(1)', ['myspace'],
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** A schema with its `$ref` followed and a nullable `anyOf` unwrapped: what its properties are. */
function resolve(schema: any): any {
  if (!schema) return schema;
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop()]);
  const object = schema.anyOf?.find((option: any) => option.type === 'object' || option.$ref);
  return object ? resolve(object) : schema;
}

const propertiesOf = (schema: any): Record<string, any> => resolve(schema)?.properties ?? {};

/** A body to send as text: wrong JSON shapes, broken JSON, and objects of the right fields with wrong values or unknown fields beside them. */
function bodyFor(schema: any): fc.Arbitrary<string> {
  const properties = propertiesOf(schema);
  const names = Object.keys(properties);
  const nested = names.filter((name) => Object.keys(propertiesOf(properties[name])).length > 0);
  const field = names.length ? fc.oneof(fc.constantFrom(...names), unknownParameter) : unknownParameter;
  const shapes: fc.Arbitrary<string>[] = [
    fc.constantFrom('[]', '[{}]', '"a string"', '1', 'null', 'true', '{', '{"a":', 'not json', '\u0000', '{"a":1}{"b":2}'),
    fc.dictionary(field, badValue, { minKeys: 1, maxKeys: 4 }).map((body) => JSON.stringify(body)),
    fc.tuple(field, fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '"\\u0000"', '"\\ud800"', '[' + '['.repeat(200) + ']'.repeat(200) + ']')).map(
      ([name, raw]) => `{${JSON.stringify(name)}:${raw}}`,
    ),
  ];
  if (nested.length) {
    shapes.push(
      fc
        .constantFrom(...nested)
        .chain((name) =>
          fc
            .dictionary(fc.oneof(fc.constantFrom(...Object.keys(propertiesOf(properties[name]))), unknownParameter), badValue, { minKeys: 1, maxKeys: 3 })
            .map((inner) => JSON.stringify({ [name]: inner })),
        ),
    );
  }
  return fc.oneof(...shapes);
}

interface BadRequest {
  path: string;
  body: string | undefined;
}

function requestsFor(path: string, method: string, operation: any): fc.Arbitrary<BadRequest> {
  const pathParameters = operation.parameters.filter((parameter: any) => parameter.in === 'path').map((parameter: any) => parameter.name as string);
  const queryNames = operation.parameters.filter((parameter: any) => parameter.in === 'query').map((parameter: any) => parameter.name as string);
  const queryName = queryNames.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...queryNames) }, { weight: 1, arbitrary: unknownParameter }) : unknownParameter;
  const query = fc.array(fc.tuple(queryName, badText), { maxLength: 3 });
  const takesBody = method !== 'get' && method !== 'delete';
  const body: fc.Arbitrary<string | undefined> = operation.requestBody
    ? bodyFor((operation.requestBody.content['application/json'] ?? operation.requestBody.content['application/x-www-form-urlencoded']).schema)
    : takesBody
      ? fc.option(fc.constantFrom('{', '[]', '{"unknown":1}', '\u0000'), { nil: undefined })
      : fc.constant(undefined);
  return fc.record({ ids: fc.array(oddId, { minLength: pathParameters.length, maxLength: pathParameters.length }), query, body }).map(({ ids, query: pairs, body: text }) => {
    let filled = path;
    for (const [index, name] of pathParameters.entries()) filled = filled.replace(`{${name}}`, ids[index]);
    const search = new URLSearchParams(pairs).toString();
    return { path: search ? `${filled}?${search}` : filled, body: text };
  });
}

/** The envelopes with nothing beside their documented fields: `/v1`'s, and the compatibility API's. */
const strictEnvelope = z.strictObject({ error: errorEnvelopeSchema.shape.error.strict() });
const strictOctolensEnvelope = z.strictObject({ error: octolensErrorSchema.shape.error.strict() });

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

describe('a seeded bad-input run over every operation of openapi.json', () => {
  it('covers every route of the table', () => {
    expect(operations()).toHaveLength(routeTables.flatMap((table) => table.routes).length);
  });

  it('answers no malformed request with a 5xx, and every refusal in the documented envelope', async () => {
    const failures: string[] = [];
    for (const { path, method, operation } of operations()) {
      const documented = Object.keys(operation.responses).map(Number);
      await fc.assert(
        fc.asyncProperty(requestsFor(path, method, operation), async (request) => {
          const response = await fetch(earshot.url + request.path, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${key}`, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
            body: request.body,
          });
          const text = await response.text();
          const requestId = response.headers.get('x-request-id');
          const where = `${method.toUpperCase()} ${request.path.slice(0, 200)} ${String(request.body).slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
          // A feature the compatibility API does not offer is its one deliberate 5xx (spec 4.8).
          const featureDisabled = response.status === 501 && path.startsWith('/compat/') && JSON.parse(text).error.code === 'FEATURE_DISABLED';
          if (!featureDisabled) expect(response.status, where).toBeLessThan(500);
          expect(requestId, where).toBeTruthy();
          if (response.status < 400) return;
          expect(response.headers.get('content-type'), where).toBe('application/json; charset=utf-8');
          expect(documented, where).toContain(response.status);
          if (path.startsWith('/compat/')) {
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
        }),
        { seed, numRuns: runsPerOperation, endOnFailure: true },
      ).catch((failure: Error) => {
        // fast-check keeps the assertion that failed as the cause; its message names the request and the answer.
        const reason = failure.cause instanceof Error ? failure.cause.message : '';
        failures.push(`${method.toUpperCase()} ${path}: ${failure.message.split('\n').slice(0, 3).join(' ')}\n${reason}`);
      });
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
