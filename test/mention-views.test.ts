import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';
import { expectOctolensError, expectOctolensShape, octolens } from './octolens-shapes.ts';

/**
 * Saved views (spec 2.11, 4.7, 7 `duplicate_view`): CRUD under `/v1/views`,
 * `viewId` on the list, the export and the GraphQL field (other filters
 * narrowing it), and the compatibility API's `GET /views` and `view`.
 */

let earshot: TestEarshot;
let key: string;
let kw1: string;
let kw2: string;
/** Seeded mentions by letter; the list shows mentions stored together by id, newest first. */
const m: Record<string, string> = {};

const day = (date: string) => new Date(`${date}T12:00:00Z`);
const errorOf = (code: string, field: string | null | undefined, status: number) => ({
  status,
  body: { error: { code, message: expect.any(String), requestId: expect.stringMatching(/^req_/), ...(field === undefined ? {} : { field }) } },
});
const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

const listed = async (query: string, apiKey = key) => {
  const response = await earshot.rest('GET', `/v1/mentions?limit=100&${query}`, { key: apiKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.map((mention: { id: string }) => mention.id);
};
/** Newest first: the seeds share their match time, so the list orders them by id, last first. */
const newestOf = (...ids: string[]) => [...ids].sort().reverse();
const create = (body: unknown, apiKey = key) => earshot.rest('POST', '/v1/views', { key: apiKey, body });

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Views');
  key = created.apiKey;
  kw1 = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', platforms: [] } })).body.id;
  kw2 = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Widget', platforms: [] } })).body.id;
  const [a, b, c, d, e] = await seedMentions(earshot.sql, created.workspace.id, [
    { keywordId: kw1, platform: 'reddit', publishedAt: day('2026-01-10'), score: { relevance: 90, sentiment: 'positive', priority: 10 } },
    { keywordId: kw1, platform: 'x', publishedAt: day('2026-01-11'), score: { relevance: 70, sentiment: 'negative', priority: 90 } },
    { keywordId: kw2, platform: 'x', publishedAt: day('2026-01-12'), score: { relevance: 80, sentiment: 'positive', priority: 50 } },
    { keywordId: kw2, platform: 'x', publishedAt: day('2026-01-13'), score: { relevance: 10, sentiment: 'negative', priority: 99 } },
    { keywordId: kw1, platform: 'reddit', publishedAt: day('2026-01-14'), score: { relevance: 85, sentiment: 'neutral', priority: 20 }, triage: { status: 'done' } },
  ]);
  Object.assign(m, { a, b, c, d, e });
});
afterAll(() => earshot?.stop());

describe('/v1/views', () => {
  it('creates, lists, reads, changes and deletes a view, its filter stored as checked', async () => {
    const made = await create({ name: 'Loud on X', filter: { platforms: ['x', 'x'], linkHosts: ['WWW.GitHub.com'], since: '2026-01-01T00:00:00+02:00' }, sort: 'priority' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^view_/),
      name: 'Loud on X',
      filter: { platforms: ['x'], linkHosts: ['github.com'], since: '2025-12-31T22:00:00.000Z' },
      sort: 'priority',
      createdAt: expect.any(String),
      updatedAt: made.body.createdAt,
    });
    const second = await create({ name: '  Everything  ' });
    expect(second.body).toMatchObject({ name: 'Everything', filter: {}, sort: 'newest' });

    expect((await earshot.rest('GET', '/v1/views', { key })).body).toEqual({ data: [made.body, second.body] });
    expect((await earshot.rest('GET', `/v1/views/${made.body.id}`, { key })).body).toEqual(made.body);

    const renamed = await earshot.rest('PATCH', `/v1/views/${made.body.id}`, { key, body: { name: 'loud on x', sort: null } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'loud on x', filter: made.body.filter, sort: 'newest' });
    const refiltered = await earshot.rest('PATCH', `/v1/views/${made.body.id}`, { key, body: { filter: { sentiments: ['negative'] } } });
    expect(refiltered.body).toMatchObject({ name: 'loud on x', filter: { sentiments: ['negative'] }, sort: 'newest' });
    expect((await earshot.rest('PATCH', `/v1/views/${made.body.id}`, { key, body: { filter: null } })).body.filter).toEqual({});

    expect((await earshot.rest('DELETE', `/v1/views/${made.body.id}`, { key })).status).toBe(204);
    expect(answer(await earshot.rest('GET', `/v1/views/${made.body.id}`, { key }))).toEqual(errorOf('not_found', undefined, 404));
    expect(answer(await earshot.rest('DELETE', `/v1/views/${made.body.id}`, { key }))).toEqual(errorOf('not_found', undefined, 404));
    expect(answer(await earshot.rest('PATCH', `/v1/views/${made.body.id}`, { key, body: { name: 'x' } }))).toEqual(errorOf('not_found', undefined, 404));
    expect((await earshot.rest('GET', '/v1/views', { key })).body.data.map((view: { id: string }) => view.id)).toEqual([second.body.id]);
    await earshot.rest('DELETE', `/v1/views/${second.body.id}`, { key });
  });

  it('keeps names unique in the workspace whatever their case (409 duplicate_view), and apart between workspaces', async () => {
    const first = await create({ name: 'Competitors' });
    const other = await create({ name: 'Praise' });
    expect(answer(await create({ name: 'COMPETITORS' }))).toEqual(errorOf('duplicate_view', 'name', 409));
    expect(answer(await earshot.rest('PATCH', `/v1/views/${other.body.id}`, { key, body: { name: 'competitors ' } }))).toEqual(errorOf('duplicate_view', 'name', 409));
    expect((await earshot.rest('PATCH', `/v1/views/${first.body.id}`, { key, body: { name: 'competitors' } })).body.name).toBe('competitors');
    const neighbour = await earshot.createWorkspace('Neighbour');
    expect((await create({ name: 'Competitors' }, neighbour.apiKey)).status).toBe(201);
    expect(answer(await earshot.rest('GET', `/v1/views/${first.body.id}`, { key: neighbour.apiKey }))).toEqual(errorOf('not_found', undefined, 404));
    expect(answer(await earshot.rest('DELETE', `/v1/views/${first.body.id}`, { key: neighbour.apiKey }))).toEqual(errorOf('not_found', undefined, 404));
    // A view names keywords of its own workspace only: it is stored and shown back.
    expect(answer(await create({ name: 'Borrowed', filter: { notKeywordIds: [kw1] } }, neighbour.apiKey))).toEqual(errorOf('not_found', 'filter.notKeywordIds', 404));
    for (const view of [first, other]) await earshot.rest('DELETE', `/v1/views/${view.body.id}`, { key });
  });

  it('checks a body as the list checks its filters, naming the field', async () => {
    const cases: [unknown, string, string | null, number][] = [
      [{ name: 'Bad platform', filter: { platforms: ['myspace'] } }, 'validation_error', 'filter.platforms.0', 400],
      [{ name: 'Bad since', filter: { since: 'yesterday' } }, 'validation_error', 'filter.since', 400],
      [{ name: 'Unknown', filter: { colour: 'red' } }, 'validation_error', 'filter.colour', 400],
      [{ name: 'Nested', filter: { viewId: 'view_01' } }, 'validation_error', 'filter.viewId', 400],
      [{ name: 'Huge', filter: { platforms: Array.from({ length: 101 }, () => 'x') } }, 'filter_too_complex', 'filter.platforms', 400],
      [{ name: 'No rule', filter: { alertId: 'alr_nothing' } }, 'not_found', 'filter.alertId', 404],
      [{ name: 'No keyword', filter: { keywordIds: ['kw_01jd8x3m5c2v7q9r4t6w8y0z1a'] } }, 'not_found', 'filter.keywordIds', 404],
      [{ name: 'No member', filter: { assigneeId: 'usr_01jd8x3m5c2v7q9r4t6w8y0z1a' } }, 'invalid_assignee', 'filter.assigneeId', 400],
      [{ name: 'No person', filter: { personId: 'per_01jd8x3m5c2v7q9r4t6w8y0z1a' } }, 'not_found', 'filter.personId', 404],
      [{ name: '' }, 'validation_error', 'name', 400],
      [{ name: 'x'.repeat(101) }, 'validation_error', 'name', 400],
      [{ name: 'Bad sort', sort: 'oldest' }, 'validation_error', 'sort', 400],
      [{ filter: {} }, 'validation_error', 'name', 400],
      [{ name: 'Extra', colour: 'red' }, 'validation_error', 'colour', 400],
    ];
    for (const [body, code, field, status] of cases) expect({ body, answer: answer(await create(body)) }).toEqual({ body, answer: errorOf(code, field, status) });
    expect((await earshot.rest('GET', '/v1/views', { key })).body).toEqual({ data: [] });
  });

  it('lets a read key list and read views but not change them', async () => {
    const view = await create({ name: 'Readable' });
    const reader = (await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'reader', scope: 'read' } })).body.key;
    expect((await earshot.rest('GET', '/v1/views', { key: reader })).body.data).toEqual([view.body]);
    expect((await earshot.rest('GET', `/v1/views/${view.body.id}`, { key: reader })).body).toEqual(view.body);
    expect(answer(await create({ name: 'Sneaky' }, reader))).toEqual(errorOf('read_only_key', undefined, 403));
    expect(answer(await earshot.rest('DELETE', `/v1/views/${view.body.id}`, { key: reader }))).toEqual(errorOf('read_only_key', undefined, 403));
    await earshot.rest('DELETE', `/v1/views/${view.body.id}`, { key });
  });
});

describe('viewId', () => {
  it('applies a view on the list, with its sort unless one is asked for, and the filters given beside it narrow it', async () => {
    const onX = (await create({ name: 'On X', filter: { platforms: ['x'] }, sort: 'priority' })).body;
    // Relevant only (the list's default): b and c; by the view's sort, priority first.
    expect(await listed(`viewId=${onX.id}`)).toEqual([m.b, m.c]);
    expect(await listed(`viewId=${onX.id}&sort=newest`)).toEqual(newestOf(m.b, m.c));
    expect(await listed(`viewId=${onX.id}&sentiments=positive`)).toEqual([m.c]);
    // The same parameter given beside the view narrows it too, rather than replacing it.
    expect(await listed(`viewId=${onX.id}&platforms=reddit`)).toEqual([]);
    expect(await listed(`viewId=${onX.id}&relevant=false`)).toEqual([m.d]);

    const page = await earshot.rest('GET', `/v1/mentions?viewId=${onX.id}&limit=1`, { key });
    expect(page.body.data.map((mention: { id: string }) => mention.id)).toEqual([m.b]);
    const next = await earshot.rest('GET', `/v1/mentions?viewId=${onX.id}&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`, { key });
    expect(next.body.data.map((mention: { id: string }) => mention.id)).toEqual([m.c]);

    const graphql = await earshot.graphql(`query ($filter: MentionFilter) { mentions(filter: $filter) { nodes { id } } }`, { filter: { viewId: onX.id } }, key);
    expect(graphql.body.data.mentions.nodes.map((node: { id: string }) => node.id)).toEqual([m.b, m.c]);
  });

  it("leaves the list's defaults to what the view does not set: a view of unscored or snoozed mentions shows them", async () => {
    const noise = (await create({ name: 'Noise', filter: { relevant: false } })).body;
    expect(await listed(`viewId=${noise.id}`)).toEqual([m.d]);
    const done = (await create({ name: 'Done', filter: { status: 'done', keywordIds: [kw1] } })).body;
    expect(await listed(`viewId=${done.id}`)).toEqual([m.e]);
    expect(await listed(`viewId=${done.id}&status=open`)).toEqual([]);
  });

  it('applies a view on the CSV export, newest first whatever its sort', async () => {
    const view = (await create({ name: 'Export X', filter: { platforms: ['x'], relevant: true }, sort: 'priority' })).body;
    const response = await fetch(`${earshot.url}/v1/mentions/export.csv?viewId=${view.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    const rows = (parse(await response.text()) as string[][]).slice(1);
    expect(rows.map((row) => row[0])).toEqual(newestOf(m.b, m.c));
  });

  it('refuses a view that is not the workspace\'s, or no longer there, with 404 not_found on viewId', async () => {
    const gone = (await create({ name: 'Gone soon' })).body;
    await earshot.rest('DELETE', `/v1/views/${gone.id}`, { key });
    expect(answer(await earshot.rest('GET', `/v1/mentions?viewId=${gone.id}`, { key }))).toEqual(errorOf('not_found', 'viewId', 404));
    expect(answer(await earshot.rest('GET', `/v1/mentions/export.csv?viewId=${gone.id}`, { key }))).toEqual(errorOf('not_found', 'viewId', 404));
    const neighbour = await earshot.createWorkspace('Snooper');
    const theirs = (await create({ name: 'Theirs' }, neighbour.apiKey)).body;
    expect(answer(await earshot.rest('GET', `/v1/mentions?viewId=${theirs.id}`, { key }))).toEqual(errorOf('not_found', 'viewId', 404));
  });
});

describe('the compatibility API', () => {
  it('lists views in the recorded shape, their filters in its names, and applies one as view', async () => {
    const own = await earshot.createWorkspace('Compat views');
    await earshot.rest('POST', '/v1/keywords', { key: own.apiKey, body: { term: 'Gizmo', platforms: [] } });
    const keywordId = (await earshot.rest('GET', '/v1/keywords', { key: own.apiKey })).body.data[0].id;
    const [onX, onReddit] = await seedMentions(earshot.sql, own.workspace.id, [
      { keywordId, platform: 'x', score: { relevance: 90, sentiment: 'negative' } },
      { keywordId, platform: 'reddit', score: { relevance: 90, sentiment: 'positive' } },
    ]);
    const shaped = (await create({ name: 'High Priority', filter: { platforms: ['x'], sentiments: ['positive', 'negative'] } }, own.apiKey)).body;
    const listedViews = await octolens(earshot, 'GET', '/views', own.apiKey);
    expectOctolensShape(listedViews, 'list-views');
    expect(listedViews.body.data).toEqual([
      {
        id: 1,
        sourceId: shaped.id,
        name: 'High Priority',
        icon: null,
        filters: { source: ['twitter'], sentiment: ['positive', 'negative'] },
        createdAt: shaped.createdAt,
        updatedAt: shaped.updatedAt,
      },
    ]);

    const wide = (
      await create(
        {
          name: 'Wide',
          filter: {
            keywordIds: [keywordId],
            notPlatforms: ['devto'],
            notSentiments: ['neutral'],
            intent: 'question',
            languages: ['en'],
            relevant: true,
            isReply: false,
            status: 'done',
            minFollowers: 5,
            until: '2030-01-01T00:00:00Z',
            q: 'kept through view',
          },
        },
        own.apiKey,
      )
    ).body;
    const [, second] = (await octolens(earshot, 'GET', '/views', own.apiKey)).body.data;
    const keywordCompatId = (await octolens(earshot, 'GET', '/keywords', own.apiKey)).body.data[0].id;
    expect(second).toMatchObject({
      id: 2,
      sourceId: wide.id,
      filters: {
        keyword: [keywordCompatId],
        '!source': ['dev'],
        '!sentiment': ['neutral'],
        tag: ['question'],
        language: ['en'],
        relevance: [0, 1],
        postType: ['top-level'],
        engaged: true,
        minXFollowers: 5,
        endDate: '2030-01-01T00:00:00.000Z',
      },
    });

    const viewed = async (body: object) => (await octolens(earshot, 'POST', '/mentions', own.apiKey, { includeAll: true, ...body })).body.data.map((row: any) => row.sourceId);
    expect(await viewed({ view: 1 })).toEqual([onX]);
    expect(await viewed({ view: 1, filters: { sentiment: ['positive'] } })).toEqual([]);
    expect(await viewed({ filters: { sentiment: ['positive'] } })).toEqual([onReddit]);
    const exported = await octolens(earshot, 'POST', '/mentions/export', own.apiKey, { view: 1 });
    expect(exported.body.data.map((row: any) => row.sourceId)).toEqual([onX]);
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', own.apiKey, { view: 99 }), 404, 'NOT_FOUND');
    // Another workspace's views have their own numbers.
    expectOctolensError(await octolens(earshot, 'POST', '/mentions', key, { view: 2 }), 404, 'NOT_FOUND');
  });
});
