import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { searchPlatforms } from '../vocabulary/normalized-post.ts';
import { routeTable, routeTables } from '../rest-facade/route-table.ts';
import { mentionFilterQuery } from '../subgraphs/mentions/index.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let key: string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  key = (await earshot.createWorkspace('Malformed')).apiKey;
});
afterAll(() => earshot?.stop());

/** An error response as the spec's envelope (part 7): `requestId` is the `X-Request-Id` header. */
function expectEnvelope(response: { status: number; headers: Headers; body: any }, status: number, error: Record<string, unknown>) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual({ error: { message: expect.any(String), requestId: response.headers.get('x-request-id'), ...error } });
}

/** GraphQL's own type names and wording, which a REST caller never sent and cannot act on. */
const graphQLWording = /Input"|Enum "|cannot represent|defined by type|required type|Variable "\$/;

const idRoutes = routeTable.filter((route) => route.path.includes('{id}'));

describe('an id that cannot name a record', () => {
  it('is on every id route of the table', () => {
    expect(idRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'DELETE /v1/alerts/{id}',
      'DELETE /v1/api-keys/{id}',
      'DELETE /v1/channels/{id}',
      'DELETE /v1/connected-apps/{id}',
      'DELETE /v1/groups/{id}',
      'DELETE /v1/keywords/{id}',
      'DELETE /v1/members/invitations/{id}',
      'DELETE /v1/members/{id}',
      'DELETE /v1/people/{id}/activities/{activityId}',
      'DELETE /v1/segments/{id}',
      'DELETE /v1/views/{id}',
      'GET /v1/alerts/{id}',
      'GET /v1/billing/top-ups/{id}',
      'GET /v1/channels/{id}',
      'GET /v1/channels/{id}/deliveries',
      'GET /v1/groups/{id}',
      'GET /v1/keywords/{id}',
      'GET /v1/keywords/{id}/health',
      'GET /v1/keywords/{id}/suggestions',
      'GET /v1/mentions/{id}',
      'GET /v1/mentions/{id}/comments',
      'GET /v1/people/{id}',
      'GET /v1/people/{id}/activities',
      'GET /v1/segments/{id}',
      'GET /v1/views/{id}',
      'PATCH /v1/alerts/{id}',
      'PATCH /v1/channels/{id}',
      'PATCH /v1/groups/{id}',
      'PATCH /v1/keywords/{id}',
      'PATCH /v1/members/{id}',
      'PATCH /v1/mentions/{id}',
      'PATCH /v1/people/{id}',
      'PATCH /v1/segments/{id}',
      'PATCH /v1/views/{id}',
      'POST /v1/alerts/{id}/run',
      'POST /v1/alerts/{id}/test',
      'POST /v1/billing/top-ups/{id}/confirm',
      'POST /v1/channels/{id}/rotate-secret',
      'POST /v1/channels/{id}/test',
      'POST /v1/people/{id}/activities',
      'POST /v1/people/{id}/merge',
      'POST /v1/people/{id}/split',
    ]);
  });

  const oddIds = [
    ['a NUL byte', '%00'],
    ['a NUL byte inside', 'kw_%00abc'],
    ['a cut-off UTF-8 sequence', '%E0%A4%A'],
    ['a bare percent sign', '%'],
    ['a byte that is never UTF-8', '%FF'],
    ['an encoded surrogate half', '%ED%A0%80'],
    ['3,000 characters', 'k'.repeat(3000)],
    ['an emoji', '%F0%9F%98%80'],
    ['a path climb', '..%2F..%2Fetc%2Fpasswd'],
    ['an SQL fragment', "1'%20OR%20'1'%3D'1"],
    ['a blank', '%20'],
    ['a well-formed id of nothing', 'kw_01jd8x3m5c2v7q9r4t6w8y0z1a'],
  ];
  // Bodies that name required fields, well-formed, so that only the id can be refused.
  const wellFormedBodies: Record<string, unknown> = {
    'POST /v1/people/{id}/merge': { personId: 'per_01jd8x3m5c2v7q9r4t6w8y0z1a' },
    'POST /v1/people/{id}/split': { authorId: 'aut_01jd8x3m5c2v7q9r4t6w8y0z1a' },
    'POST /v1/people/{id}/activities': { channel: 'email' },
  };
  // A change to the team needs a person signed in: a key is refused before the id is read (spec 4.5).
  const changesTeam = (route: (typeof idRoutes)[number]) => route.method !== 'GET' && route.path.startsWith('/v1/members/');
  for (const route of idRoutes.filter((route) => !changesTeam(route))) {
    it.each(oddIds)(`${route.method} ${route.path}: an id with %s is 404 not_found`, async (_label, id) => {
      const body = route.body ? (wellFormedBodies[`${route.method} ${route.path}`] ?? {}) : undefined;
      const path = route.path.replace('{id}', id).replace('{activityId}', 'act_01jd8x3m5c2v7q9r4t6w8y0z1a');
      const response = await earshot.rest(route.method, path, { key, body });
      expectEnvelope(response, 404, { code: 'not_found' });
    });
  }

  // A path that does not decode to text names nothing on any route; one that does is refused to a key there.
  const decodesToText = (id: string) => {
    try {
      return !decodeURIComponent(id).includes('\u0000');
    } catch {
      return false;
    }
  };
  for (const route of idRoutes.filter(changesTeam)) {
    it.each(oddIds)(`${route.method} ${route.path}: an id with %s is 403 forbidden to an API key, or 404 when it is no text`, async (_label, id) => {
      const response = await earshot.rest(route.method, route.path.replace('{id}', id), { key, body: route.body ? {} : undefined });
      if (decodesToText(id)) expectEnvelope(response, 403, { code: 'forbidden' });
      else expectEnvelope(response, 404, { code: 'not_found' });
    });
  }

  it('still answers a missing or unknown key with 401 first', async () => {
    expectEnvelope(await earshot.rest('GET', '/v1/keywords/%00'), 401, { code: 'unauthorized' });
    expectEnvelope(await earshot.rest('GET', '/v1/mentions/%E0%A4%A', { key: 'mk_live_nope' }), 401, { code: 'unauthorized' });
    expectEnvelope(await earshot.rest('DELETE', '/v1/api-keys/%00', { key: 'mk_live_nope' }), 401, { code: 'unauthorized' });
  });
});

describe('a NUL character in input', () => {
  it('is 400 validation_error naming the body field, and nothing is stored', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'ac\u0000me' } }), 400, {
      code: 'validation_error',
      field: 'term',
      message: 'term: must not contain NUL characters',
    });
    expectEnvelope(await earshot.rest('PATCH', '/v1/filters', { key, body: { excludedTerms: ['fine', 'not\u0000fine'] } }), 400, {
      code: 'validation_error',
      field: 'excludedTerms.1',
      message: 'excludedTerms.1: must not contain NUL characters',
    });
    expect((await earshot.rest('GET', '/v1/keywords', { key })).body.data).toEqual([]);
    expect((await earshot.rest('GET', '/v1/filters', { key })).body.excludedTerms).toEqual([]);
  });

  it('is 400 validation_error naming the query parameter', async () => {
    for (const [path, field] of [
      ['/v1/keywords?cursor=%00', 'cursor'],
      ['/v1/keywords?groupId=grp_%00', 'groupId'],
      ['/v1/mentions?keywordIds=kw_1,%00', 'keywordIds'],
      ['/v1/usage/breakdown?month=2028-%0002', 'month'],
    ]) {
      expectEnvelope(await earshot.rest('GET', path, { key }), 400, { code: 'validation_error', field, message: `${field}: must not contain NUL characters` });
    }
  });

  it('is validation_error over GraphQL too, inline or in a variable, before any resolver runs', async () => {
    const inline = await earshot.graphql('query { mention(id: "\\u0000") { id } }', {}, key);
    expect(inline.body.errors).toEqual([
      expect.objectContaining({ message: 'id: must not contain NUL characters', extensions: expect.objectContaining({ code: 'validation_error', field: 'id' }) }),
    ]);

    const variable = await earshot.graphql('query Keyword($id: ID!) { keyword(id: $id) { id } }', { id: 'kw_\u0000' }, key);
    expect(variable.body.errors).toEqual([
      expect.objectContaining({ message: 'id: must not contain NUL characters', extensions: expect.objectContaining({ code: 'validation_error', field: 'id' }) }),
    ]);

    const created = await earshot.graphql('mutation { createGroup(input: { name: "Team", description: "a\\u0000b" }) { id } }', {}, key);
    expect(created.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'input.description' });
    expect((await earshot.rest('GET', '/v1/groups', { key })).body.data.map((group: { name: string }) => group.name)).not.toContain('Team');
  });
});

// JSON's `\ud800` escape carries half of a UTF-16 pair, which jsonb refuses (a 500 where filters are stored) and text turns into U+FFFD.
describe('a lone surrogate in input', () => {
  const message = (field: string) => `${field}: must not contain lone surrogates (unpaired halves of UTF-16 pairs)`;

  it('is 400 validation_error naming the body field, and nothing is stored or changed', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/views', { key, body: { name: 'Unpaired', filter: { q: 'a\ud800' } } }), 400, {
      code: 'validation_error',
      field: 'filter.q',
      message: message('filter.q'),
    });
    expectEnvelope(await earshot.rest('POST', '/v1/segments', { key, body: { name: 'Unpaired', filter: { ownerIds: ['\udc00'] } } }), 400, {
      code: 'validation_error',
      field: 'filter.ownerIds.0',
      message: message('filter.ownerIds.0'),
    });
    expectEnvelope(await earshot.rest('POST', '/v1/api-keys', { key, body: { name: '\ud800' } }), 400, { code: 'validation_error', field: 'name', message: message('name') });
    expect((await earshot.rest('GET', '/v1/views', { key })).body.data).toEqual([]);
    expect((await earshot.rest('GET', '/v1/segments', { key })).body.data).toEqual([]);

    const rule = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Rule', mode: 'instant', filter: { mutedAuthors: ['@kept'] } } })).body;
    expectEnvelope(await earshot.rest('PATCH', `/v1/alerts/${rule.id}`, { key, body: { filter: { mutedAuthors: ['@a\udfffb'] } } }), 400, {
      code: 'validation_error',
      field: 'filter.mutedAuthors.0',
      message: message('filter.mutedAuthors.0'),
    });
    expect((await earshot.rest('GET', `/v1/alerts/${rule.id}`, { key })).body.filter).toEqual({ mutedAuthors: ['@kept'] });
  });

  it('leaves a whole pair alone', async () => {
    const view = await earshot.rest('POST', '/v1/views', { key, body: { name: 'Paired \ud83d\ude00', filter: { q: '\ud83d\ude00' } } });
    expect(view.status).toBe(201);
    expect(view.body).toMatchObject({ name: 'Paired 😀', filter: { q: '😀' } });
  });

  it('is validation_error over GraphQL too, before any resolver runs', async () => {
    const created = await earshot.graphql('mutation Create($input: CreateSegmentInput!) { createSegment(input: $input) { id } }', { input: { name: 'Unpaired', filter: { q: '\ud800' } } }, key);
    expect(created.body.errors).toEqual([
      expect.objectContaining({ message: message('input.filter.q'), extensions: expect.objectContaining({ code: 'validation_error', field: 'input.filter.q' }) }),
    ]);
    expect((await earshot.rest('GET', '/v1/segments', { key })).body.data).toEqual([]);
  });
});

describe('query parameters', () => {
  const mentionParameters = ['limit', 'cursor', 'sort', ...Object.keys(mentionFilterQuery.shape)].join(', ');

  it.each([
    ['sentimentt=angry', 'sentimentt'],
    ['from=yesterday', 'from'],
    ['platfrom=reddit', 'platfrom'],
  ])('refuses one a route does not take (%s) with 400 naming it and listing what the route takes', async (query, field) => {
    expectEnvelope(await earshot.rest('GET', `/v1/mentions?${query}`, { key }), 400, {
      code: 'validation_error',
      field,
      message: `${field}: unknown query parameter; this route takes ${mentionParameters}`,
    });
  });

  it('refuses any on a route that takes none', async () => {
    expectEnvelope(await earshot.rest('GET', '/v1/whoami?verbose=1', { key }), 400, {
      code: 'validation_error',
      field: 'verbose',
      message: 'verbose: unknown query parameter; this route takes none',
    });
  });

  const platformList = [...searchPlatforms, 'appstore', 'googleplay', 'trustpilot', 'googlemaps', 'rss'].join(', ');
  it.each([
    ['platform=myspace', 'platform', `platform: must be one of ${platformList}`],
    ['platforms=reddit,myspace', 'platforms.1', `platforms.1: must be one of ${platformList}`],
    ['platforms=,', 'platforms', 'platforms: must name at least one'],
    ['status=closed', 'status', 'status: must be one of open, done, ignored'],
    ['relevant=maybe', 'relevant', 'relevant: must be one of true, false'],
    ['limit=abc', 'limit', 'limit: must be a whole number'],
    ['limit=0', 'limit', 'limit: must be at least 1'],
    ['limit=2.5', 'limit', 'limit: must be a whole number'],
    // Decimal digits only: Number() would read these as 16, 10, 5, 5 and 0.
    ['limit=0x10', 'limit', 'limit: must be a whole number'],
    ['limit=1e1', 'limit', 'limit: must be a whole number'],
    ['limit=%205', 'limit', 'limit: must be a whole number'],
    ['limit=%2B5', 'limit', 'limit: must be a whole number'],
    ['limit=', 'limit', 'limit: must be a whole number'],
    // A one-value parameter repeated is named as such, not as "expected a string, got an array".
    ['limit=5&limit=6', 'limit', 'limit: is given more than once; this parameter takes one value'],
    ['cursor=a&cursor=b', 'cursor', 'cursor: is given more than once; this parameter takes one value'],
  ])('refuses a bad value (%s) with 400 naming the parameter and what it takes', async (query, field, message) => {
    expectEnvelope(await earshot.rest('GET', `/v1/mentions?${query}`, { key }), 400, { code: 'validation_error', field, message });
  });

  // Every number a query takes (page sizes, windows in days), on every route of both tables.
  const numberParameters = ['limit', 'days', 'window'];
  const numberRoutes = routeTables
    .flatMap((table) => table.routes)
    // The compatibility API's 501 routes take Octolens's parameters unread.
    .filter((route) => route.method === 'GET' && !('operation' in route && route.operation.includes('FeatureCheck')))
    .flatMap((route) => Object.keys(route.query?.shape ?? {}).filter((name) => numberParameters.includes(name)).map((name) => [route.path, name]));
  it('has number parameters on the list routes to check', () => {
    expect(numberRoutes.map(([path]) => path)).toEqual(
      expect.arrayContaining(['/v1/people', '/v1/people/{id}/activities', '/v1/keywords', '/v1/channels/{id}/deliveries', '/v1/keywords/{id}/health']),
    );
  });
  it.each(numberRoutes)('%s refuses %s written other than in decimal digits (0x10, 1e1)', async (path, name) => {
    for (const written of ['0x10', '1e1']) {
      const response = await earshot.rest('GET', `${path.replace(/\{\w+\}/g, 'x')}?${name}=${written}`, { key });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain(`${name}: must be a whole number`);
    }
  });

  it('reads every number a query takes from decimal digits only, whatever its name', () => {
    const numberParameters = routeTables
      .flatMap((table) => table.routes)
      .flatMap((route) => Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({ at: `${route.method} ${route.path} ${name}`, schema: schema as z.ZodType })))
      .filter(({ schema }) => schema.safeParse('16').data === 16);
    expect(numberParameters.length).toBeGreaterThan(8);
    const takesOtherThanDigits = numberParameters.filter(({ schema }) => ['0x10', '1e1', ' 16', '+16', '16.0', ''].some((written) => schema.safeParse(written).success));
    expect(takesOtherThanDigits.map(({ at }) => at)).toEqual([]);
  });

  it('takes the known filters with good values', async () => {
    const response = await earshot.rest('GET', '/v1/mentions?platform=reddit&platforms=hackernews,%20rss&platforms=github&status=open&relevant=false&limit=5', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], nextCursor: null });
  });
});

describe('bodies', () => {
  it('refuses a single string where a list belongs instead of wrapping it', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', platforms: 'reddit' } }), 400, {
      code: 'validation_error',
      field: 'platforms',
      message: 'platforms: expected an array, got a string',
    });
    expectEnvelope(await earshot.rest('PATCH', '/v1/company-profile', { key, body: { competitors: 'Globex' } }), 400, {
      code: 'validation_error',
      field: 'competitors',
      message: 'competitors: expected an array, got a string',
    });
    expect((await earshot.rest('GET', '/v1/keywords', { key })).body.data).toEqual([]);
  });

  it('names a list item that is not an allowed value, and the allowed values', async () => {
    for (const platform of ['myspace', 1]) {
      expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', platforms: ['reddit', platform] } }), 400, {
        code: 'validation_error',
        field: 'platforms.1',
        message: `platforms.1: must be one of ${searchPlatforms.join(', ')}`,
      });
    }
  });

  it('names an unknown field at any depth with the fields its object takes, worded alike on every route', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: { name: 'acme' } }), 400, {
      code: 'validation_error',
      field: 'name',
      message: 'name: unknown field; this body takes term, kind, muted, platforms, context, matching, cap, comments, groupId, reviewSources, feeds',
    });
    expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', matching: { subreddits: { excluded: [], deny: ['x'] } } } }), 400, {
      code: 'validation_error',
      field: 'matching.subreddits.deny',
      message: 'matching.subreddits.deny: unknown field; matching.subreddits takes only, excluded',
    });
    for (const [method, path, takes] of [
      ['POST', '/v1/groups', 'name, externalId, description, context'],
      ['POST', '/v1/api-keys', 'name, scope, expiresAt'],
      ['PATCH', '/v1/company-profile', 'name, description, website, competitors, guidelines'],
      ['PUT', '/v1/billing/auto-recharge', 'enabled, thresholdCents, amountCents'],
      ['POST', '/v1/billing/top-ups', 'amountCents, successUrl, cancelUrl'],
    ]) {
      expectEnvelope(await earshot.rest(method, path, { key, body: { colour: 'red' } }), 400, {
        code: 'validation_error',
        field: 'colour',
        message: `colour: unknown field; this body takes ${takes}`,
      });
    }
  });

  it('words type mistakes about the JSON sent, never in GraphQL terms', async () => {
    for (const [method, path, body, field, message] of [
      ['POST', '/v1/keywords', { term: 5 }, 'term', 'term: expected a string, got a number'],
      ['POST', '/v1/keywords', { term: 'acme', muted: 'yes' }, 'muted', 'muted: expected true or false, got a string'],
      ['POST', '/v1/keywords', { term: 'acme', kind: 'rival' }, 'kind', 'kind: must be one of brand, competitor, topic'],
      ['POST', '/v1/keywords', { term: 'acme', matching: [] }, 'matching', 'matching: expected an object, got an array'],
      ['POST', '/v1/keywords', { term: 'acme', cap: { mentions: 10, per: 1 } }, 'cap.per', 'cap.per: must be one of day, week, month'],
      ['POST', '/v1/keywords', {}, 'term', 'term: is required'],
      ['POST', '/v1/api-keys', { name: 'ci', scope: 'admin' }, 'scope', 'scope: must be one of read, write'],
      ['PATCH', '/v1/mentions/mm_1', { status: 'closed' }, 'status', 'status: must be one of open, done, ignored'],
      ['PUT', '/v1/billing/auto-recharge', { enabled: 1 }, 'enabled', 'enabled: expected true or false, got a number'],
    ] as const) {
      const response = await earshot.rest(method, path, { key, body });
      expectEnvelope(response, 400, { code: 'validation_error', field, message });
      expect(response.body.error.message).not.toMatch(graphQLWording);
    }
  });
});

describe('a body nested 20,000 levels deep', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

  // Found by the fuzz run: checking the body for NUL characters walked it by recursion and overflowed the stack, answered 500.
  it('is 400 validation_error on /v1, in the spec envelope', async () => {
    for (const body of [`{"term":${nested(20_000)}}`, `{"term":"acme","matching":${nested(20_000)}}`]) {
      expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body }), 400, { code: 'validation_error', field: null, message: 'The body is nested deeper than 32 levels' });
    }
    expect((await earshot.rest('GET', '/v1/keywords', { key })).body.data).toEqual([]);
  });

  it("is 400 VALIDATION_ERROR on the compatibility API, in Octolens's envelope", async () => {
    const response = await earshot.rest('POST', '/compat/octolens/api/v2/keywords', { key, body: `{"keyword":${nested(20_000)}}` });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', message: 'The body is nested deeper than 32 levels', status: 400, details: [] } },
    });
  });

  it('takes 32 levels and words what is wrong inside them', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/keywords', { key, body: `{"term":${nested(31)}}` }), 400, {
      code: 'validation_error',
      field: 'term',
      message: 'term: expected a string, got an object',
    });
  });
});

describe('POST /v1/billing/top-ups without a payment provider', () => {
  it.each([-100, 0, 1999])('refuses %s cents with 400 validation_error, not 501', async (amountCents) => {
    expectEnvelope(await earshot.rest('POST', '/v1/billing/top-ups', { key, body: { amountCents } }), 400, {
      code: 'validation_error',
      field: 'amountCents',
      message: 'amountCents: must be at least 2000 ($20)',
    });
  });

  it('is 501 billing_not_configured for a good amount', async () => {
    expectEnvelope(await earshot.rest('POST', '/v1/billing/top-ups', { key, body: { amountCents: 2000 } }), 501, { code: 'billing_not_configured' });
  });

  it('checks the amount first over GraphQL too', async () => {
    const response = await earshot.graphql('mutation { startTopUp(input: { amountCents: -100 }) { id } }', {}, key);
    expect(response.body.errors[0]).toMatchObject({
      message: 'amountCents: must be at least 2000 ($20)',
      extensions: { code: 'validation_error', field: 'amountCents' },
    });
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Sends bytes as they are, past any HTTP client's checks, and reads the
 * answer until the server closes the connection. Ending the sending side at
 * once suits what the parser refuses; a request answered later must keep it
 * open (and ask for `Connection: close`), since Node closes a connection
 * whose client has ended.
 */
function exchangeRaw(request: string, endAtOnce = true): Promise<RawResponse> {
  const { port } = new URL(earshot.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => (endAtOnce ? socket.end(request) : socket.write(request)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
    });
  });
}

function expectRawEnvelope(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers.connection).toBe('close');
  expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(response.body).toEqual({ error: { code, message: expect.any(String), requestId: response.headers['x-request-id'], ...(code === 'validation_error' ? { field: null } : {}) } });
}

describe('a request refused before it reaches the app', () => {
  it('answers a 20 kB URL with 431 headers_too_large in the envelope', async () => {
    const response = await exchangeRaw(`GET /v1/keywords/${'k'.repeat(20_000)} HTTP/1.1\r\nHost: earshot\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expectRawEnvelope(response, 431, 'headers_too_large');
    expect(response.body.error.message).toBe('The request line and headers exceed 16384 bytes');
  });

  it('answers 20 kB of headers the same way', async () => {
    const response = await exchangeRaw(`GET /v1/health HTTP/1.1\r\nHost: earshot\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`);
    expectRawEnvelope(response, 431, 'headers_too_large');
  });

  it.each([
    ['Content-Length beside chunked framing', 'POST /v1/api-keys HTTP/1.1\r\nHost: earshot\r\nContent-Type: application/json\r\nContent-Length: 13\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['two different Content-Lengths', 'POST /v1/api-keys HTTP/1.1\r\nHost: earshot\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header line without a colon', 'GET /v1/health HTTP/1.1\r\nHost earshot\r\n\r\n'],
    ['a broken chunk size', 'POST /v1/api-keys HTTP/1.1\r\nHost: earshot\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('answers %s with 400 validation_error in the envelope', async (_label, request) => {
    expectRawEnvelope(await exchangeRaw(request), 400, 'validation_error');
  });

  // Node answered both itself, with an empty body and no request id.
  it('answers an HTTP/1.1 request without Host with 400, and an expectation it does not meet with 417, in the envelope', async () => {
    const noHost = await exchangeRaw(`GET /v1/whoami HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expectRawEnvelope(noHost, 400, 'validation_error');
    expect(noHost.body.error.message).toBe('An HTTP/1.1 request must carry a Host header');
    const expectation = await exchangeRaw('POST /v1/api-keys HTTP/1.1\r\nHost: earshot\r\nExpect: teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    expectRawEnvelope(expectation, 417, 'expectation_failed');
  });

  it('routes a request target in absolute form as its path, and an API path with doubled slashes to the API, never to the dashboard', async () => {
    const absolute = await exchangeRaw(`GET http://earshot.example/v1/whoami HTTP/1.1\r\nHost: earshot\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, false);
    expect(absolute.status).toBe(200);
    expect(absolute.body.workspace.name).toBe('Malformed');
    const doubled = await exchangeRaw(`GET //v1//whoami HTTP/1.1\r\nHost: earshot\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, false);
    expect(doubled.status).toBe(404);
    expect(doubled.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(doubled.body.error.code).toBe('not_found');
  });

  it('keeps serving well-formed requests afterwards', async () => {
    const response = await earshot.rest('GET', '/v1/health');
    expect(response.status).toBe(200);
  });
});

/** A request sent with each header as given, a list sent as that many header lines (fetch would join them into one). */
function sendRaw(method: string, path: string, headers: Record<string, string | string[]>, body?: string | Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${earshot.url}${path}`, { method, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A WebSocket upgrade request as a graphql-ws client sends it, with these headers over or beside its own: the answer, or 101 when the protocol switched. */
function upgrade(path: string, extra: Record<string, string | string[]>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const headers: Record<string, string | string[]> = {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-protocol': 'graphql-transport-ws',
      ...extra,
    };
    const request = http.request(`${earshot.url}${path}`, { headers });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode!, headers: response.headers, body: '' });
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('a body that does not arrive', () => {
  let key: string;
  beforeAll(async () => {
    key = (await earshot.createWorkspace('Slow body')).apiKey;
  });
  // It was answered at the request deadline with 503 service_unavailable and Retry-After: the service blamed, the client told to send it again.
  it('is 408 request_timeout at the deadline on /v1, /compat, /graphql and /mcp, each in its envelope, and the connection closes', async () => {
    const declared = (path: string, accept = 'application/json') =>
      exchangeRaw(`POST ${path} HTTP/1.1\r\nHost: earshot\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nAccept: ${accept}\r\nContent-Length: 5\r\n\r\n`, false);
    const [rest, compat, graphql, mcp] = await Promise.all([
      declared('/v1/groups'),
      declared('/compat/octolens/api/v2/keywords'),
      declared('/graphql'),
      declared('/mcp', 'application/json, text/event-stream'),
    ]);
    const message = 'The request body did not arrive within 4.5 s of its headers';
    expectRawEnvelope(rest, 408, 'request_timeout');
    expect(rest.body.error.message).toBe(message);
    expect({ status: compat.status, body: compat.body }).toEqual({ status: 408, body: { error: { code: 'REQUEST_TIMEOUT', message, status: 408 } } });
    expect({ status: graphql.status, body: graphql.body }).toEqual({ status: 408, body: { errors: [{ message, extensions: { code: 'request_timeout', requestId: graphql.headers['x-request-id'] } }] } });
    expect({ status: mcp.status, body: mcp.body }).toEqual({
      status: 408,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message, data: { code: 'request_timeout', requestId: mcp.headers['x-request-id'] } } },
    });
    for (const answer of [compat, graphql, mcp]) expect(answer.headers.connection).toBe('close');
  });
});

describe('two Authorization headers', () => {
  // Node keeps the first of several and drops the rest: the request acted silently with the first credential.
  it('are 400 validation_error on /v1, /compat, /graphql and /mcp, each in its envelope', async () => {
    const authorization = [`Bearer ${key}`, 'Bearer mk_live_someone_else'];
    const message = 'Send one Authorization header: this request carries several';
    const answers = [
      await sendRaw('GET', '/v1/whoami', { authorization }),
      await sendRaw('POST', '/graphql', { authorization, 'content-type': 'application/json' }, JSON.stringify({ query: '{ whoami { workspace { id } } }' })),
      await sendRaw('POST', '/mcp', { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
    ];
    for (const answer of answers) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error: { code: 'validation_error', message, field: null, requestId: answer.headers['x-request-id'] } } });
    }
    const compat = await sendRaw('GET', '/compat/octolens/api/v2/keywords', { authorization });
    expect({ status: compat.status, body: compat.body }).toEqual({ status: 400, body: { error: { code: 'VALIDATION_ERROR', message, status: 400, details: [] } } });
    // One is taken as before.
    expect((await sendRaw('GET', '/v1/whoami', { authorization: authorization[0] })).status).toBe(200);
  });

  it('are 400 validation_error on a WebSocket upgrade to /graphql, in the envelope, before the protocol switches', async () => {
    const refused = await upgrade('/graphql', { authorization: [`Bearer ${key}`, 'Bearer mk_live_someone_else'] });
    expect({ status: refused.status, body: JSON.parse(refused.body) }).toEqual({
      status: 400,
      body: { error: { code: 'validation_error', message: 'Send one Authorization header: this request carries several', field: null, requestId: refused.headers['x-request-id'] } },
    });
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await upgrade('/graphql', { authorization: `Bearer ${key}` })).status).toBe(101);
  });

  // Spec 4 honours one inbound id of 8 to 64 URL-safe characters; two are no such id, so the answer names a fresh one, as for any malformed id.
  it('leave two X-Request-Id headers unhonoured rather than refused: the answer carries a fresh id', async () => {
    const answer = await sendRaw('GET', '/v1/whoami', { authorization: `Bearer ${key}`, 'x-request-id': ['first-id-0001', 'second-id-0002'] });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    expect(['first-id-0001', 'second-id-0002']).not.toContain(answer.headers['x-request-id']);
  });
});

// The ws package answered the upgrades it refused itself, in plain text (`403 Cross-site upgrade refused`,
// `400 Bad Request` for another path, `400 Missing or invalid Sec-WebSocket-Version header`).
describe('a refused WebSocket upgrade', () => {
  const refusal = async (path: string, extra: Record<string, string | string[]>) => {
    const answer = await upgrade(path, extra);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    return { status: answer.status, headers: answer.headers, body: JSON.parse(answer.body) };
  };

  it('is 403 forbidden in the envelope when a page of another site sends the session cookie', async () => {
    const crossSite = await refusal('/graphql', { cookie: 'earshot_session=anything', origin: 'https://evil.example', 'x-request-id': 'cross-site-0001' });
    expect(crossSite).toEqual({
      status: 403,
      headers: expect.objectContaining({ 'x-request-id': 'cross-site-0001' }),
      body: { error: { code: 'forbidden', message: expect.stringContaining('https://evil.example'), requestId: 'cross-site-0001' } },
    });
    expect((await upgrade('/graphql', { cookie: 'earshot_session=anything', origin: earshot.url })).status).toBe(101);
  });

  it('is 404 not_found in the envelope at a path other than /graphql, in Octolens\'s under /compat', async () => {
    const elsewhere = await refusal('/v1/whoami', { authorization: `Bearer ${key}` });
    expect(elsewhere).toEqual({
      status: 404,
      headers: expect.anything(),
      body: { error: { code: 'not_found', message: 'No WebSocket endpoint at /v1/whoami: only /graphql takes an upgrade', requestId: elsewhere.headers['x-request-id'] } },
    });
    const compat = await refusal('/compat/octolens/api/v2/mentions', {});
    expect(compat.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No WebSocket endpoint at /compat/octolens/api/v2/mentions: only /graphql takes an upgrade', status: 404 } });
  });

  it('is 400 validation_error in the envelope for a handshake the server cannot take, naming the versions it speaks', async () => {
    const version = await refusal('/graphql', { 'sec-websocket-version': '7' });
    expect(version).toEqual({
      status: 400,
      headers: expect.objectContaining({ 'sec-websocket-version': '13, 8' }),
      body: {
        error: {
          code: 'validation_error',
          message: 'Not a WebSocket handshake this server takes: Missing or invalid Sec-WebSocket-Version header',
          field: null,
          requestId: version.headers['x-request-id'],
        },
      },
    });
    const key = await refusal('/graphql', { 'sec-websocket-key': 'short' });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toBe('Not a WebSocket handshake this server takes: Missing or invalid Sec-WebSocket-Key header');
    expect(key.headers['sec-websocket-version']).toBeUndefined();
  });

  // RFC 9110 7.8: a server may ignore an Upgrade it does not offer. curl --http2 asks for h2c on every plain-HTTP request.
  it('is no refusal for another protocol on a request without a body, which is answered over HTTP/1.1', async () => {
    const h2c = { upgrade: 'h2c', connection: 'Upgrade, HTTP2-Settings', 'http2-settings': 'AAMAAABkAAQAoAAAAAIAAAAA', authorization: `Bearer ${key}` };
    const served = await upgrade('/v1/whoami', h2c);
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body).workspace).toMatchObject({ name: 'Malformed' });
    const withBody = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${earshot.url}/graphql`, { method: 'POST', headers: { ...h2c, 'content-type': 'application/json' } });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      });
      request.on('error', reject);
      request.end(JSON.stringify({ query: '{ whoami { workspace { name } } }' }));
    });
    expect({ status: withBody.status, code: JSON.parse(withBody.body).error.code }).toEqual({ status: 400, code: 'validation_error' });
  });
});

describe('a body that is not UTF-8', () => {
  let key: string;
  beforeAll(async () => {
    key = (await earshot.createWorkspace('Not UTF-8')).apiKey;
  });
  // "Café" in Latin-1, as a client sends it that declares `charset=latin1` or none: read leniently, it was stored as "Caf\uFFFD".
  const latin1 = (json: string) => Buffer.from(json, 'latin1');
  const jsonHeaders = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=latin1' });

  it('is 400 validation_error on /v1, /compat and /graphql, and nothing is stored', async () => {
    const rest = await sendRaw('POST', '/v1/groups', jsonHeaders(), latin1('{"name":"Café Latin"}'));
    expect({ status: rest.status, body: rest.body }).toEqual({
      status: 400,
      body: { error: { code: 'validation_error', message: 'The body is not valid UTF-8: send JSON encoded as UTF-8', field: null, requestId: rest.headers['x-request-id'] } },
    });
    const compat = await sendRaw('POST', '/compat/octolens/api/v2/keywords', jsonHeaders(), latin1('{"keyword":"Café Compat"}'));
    expect({ status: compat.status, code: compat.body.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    const graphql = await sendRaw(
      'POST',
      '/graphql',
      { ...jsonHeaders(), accept: 'application/graphql-response+json' },
      latin1(JSON.stringify({ query: 'mutation { createGroup(input: { name: "Café GraphQL" }) { id } }' })),
    );
    expect({ status: graphql.status, body: graphql.body }).toEqual({
      status: 400,
      body: { errors: [{ message: 'The body is not valid UTF-8: send it encoded as UTF-8', extensions: { code: 'validation_error', requestId: graphql.headers['x-request-id'] } }] },
    });
    const groups = await earshot.rest('GET', '/v1/groups', { key });
    expect(groups.body.data.map((group: { name: string }) => group.name).filter((name: string) => name.startsWith('Caf'))).toEqual([]);
    const keywords = await earshot.rest('GET', '/v1/keywords', { key });
    expect(keywords.body.data.filter((keyword: { term: string }) => keyword.term.startsWith('Caf'))).toEqual([]);
    // The same words in UTF-8 are taken.
    const taken = await sendRaw('POST', '/v1/groups', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, Buffer.from('{"name":"Café UTF-8"}'));
    expect({ status: taken.status, name: taken.body.name }).toEqual({ status: 201, name: 'Café UTF-8' });
  });

  it("is JSON-RPC's parse error on /mcp, and the OAuth registration's invalid_request, and nothing is stored", async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_keyword', arguments: { term: 'Café MCP' } } };
    const mcp = await sendRaw('POST', '/mcp', { ...jsonHeaders(), accept: 'application/json, text/event-stream' }, latin1(JSON.stringify(call)));
    expect({ status: mcp.status, body: mcp.body }).toEqual({ status: 400, body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null } });
    const keywords = await earshot.rest('GET', '/v1/keywords', { key });
    expect(keywords.body.data.filter((keyword: { term: string }) => keyword.term.startsWith('Caf'))).toEqual([]);
    const registered = await sendRaw('POST', '/oauth/register', { 'content-type': 'application/json' }, latin1('{"redirect_uris":["http://127.0.0.1:9/cb"],"client_name":"Café"}'));
    expect({ status: registered.status, body: registered.body }).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The request body is not valid UTF-8: send JSON encoded as UTF-8' },
    });
  });
});

describe('a body in a content coding', () => {
  let key: string;
  beforeAll(async () => {
    key = (await earshot.createWorkspace('Content coding')).apiKey;
  });
  // Read as it came: a gzip body was "not valid JSON", and a plain body that only claimed to be gzip was acted on.
  it('is 415 with Accept-Encoding: identity on /v1, /compat, /graphql and /mcp, each in its envelope, and nothing is stored', async () => {
    const message = 'Content-Encoding: gzip is not decoded here: send the body as it is, without a content coding';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const answers = [
      await sendRaw('POST', '/v1/groups', headers, JSON.stringify({ name: 'Claimed gzip' })),
      await sendRaw('POST', '/v1/groups', headers, gzipSync(JSON.stringify({ name: 'Real gzip' }))),
      await sendRaw('POST', '/graphql', headers, JSON.stringify({ query: 'mutation { createGroup(input: { name: "Claimed gzip GraphQL" }) { id } }' })),
      await sendRaw('POST', '/mcp', { ...headers, accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
    ];
    for (const answer of answers) {
      expect({ status: answer.status, acceptEncoding: answer.headers['accept-encoding'], body: answer.body }).toEqual({
        status: 415,
        acceptEncoding: 'identity',
        body: { error: { code: 'validation_error', message, field: null, requestId: answer.headers['x-request-id'] } },
      });
    }
    const compat = await sendRaw('POST', '/compat/octolens/api/v2/keywords', { ...headers, 'content-encoding': 'GZip' }, JSON.stringify({ keyword: 'claimedgzip' }));
    expect({ status: compat.status, body: compat.body }).toEqual({
      status: 415,
      body: { error: { code: 'VALIDATION_ERROR', message, status: 415, details: [] } },
    });
    const groups = await earshot.rest('GET', '/v1/groups', { key });
    expect(groups.body.data.map((group: { name: string }) => group.name).filter((name: string) => name.includes('gzip'))).toEqual([]);
    // identity is no coding at all.
    const plain = await sendRaw('POST', '/v1/groups', { ...headers, 'content-encoding': 'identity' }, JSON.stringify({ name: 'Identity coded' }));
    expect(plain.status).toBe(201);
  });
});
