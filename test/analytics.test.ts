import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentionAnalytics } from '../subgraphs/mentions/index.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { account, classify, postBy, seedWorkspace, type SeededWorkspace, storePosts } from './people-seed.ts';

let earshot: TestEarshot;
let w: SeededWorkspace;
let globex: string;
const m: Record<string, string> = {};

const day = (date: string) => `${date}T00:00:00.000Z`;

beforeAll(async () => {
  earshot = await startTestEarshot();
  w = await seedWorkspace(earshot, 'analytics');
  const created = await earshot.rest('POST', '/v1/keywords', { key: w.key, body: { term: 'Globex' } });
  if (!created.body.id) throw new Error(`keyword Globex not created: ${JSON.stringify(created.body)}`);
  globex = created.body.id;
  const seed = async (
    name: string,
    keywordId: string,
    platform: 'github' | 'x' | 'reddit',
    publishedAt: string,
    result: Parameters<typeof classify>[2] | null,
  ) => {
    [m[name]] = await storePosts(earshot, { workspaceId: w.workspaceId, keywordId }, [postBy(account(platform, `dev_${name}`), `Post ${name}`, new Date(publishedAt))]);
    if (result) await classify(earshot, m[name], result);
  };
  await seed('m1', w.keywordId, 'github', '2026-03-02T10:00:00Z', { relevance: 90, sentiment: 'positive', language: 'en', intents: ['buy_intent', 'question'] });
  await seed('m2', w.keywordId, 'x', '2026-03-02T23:59:59Z', { relevance: 80, sentiment: 'negative', language: 'de', intents: ['complaint'] });
  await seed('m3', w.keywordId, 'x', '2026-03-04T05:00:00Z', { relevance: 20, sentiment: 'neutral', language: 'en', intents: [] });
  await seed('m4', globex, 'reddit', '2026-03-09T00:00:00Z', { relevance: 70, sentiment: 'neutral', language: null, intents: ['question'] });
  await seed('m5', globex, 'reddit', '2026-03-10T12:00:00Z', null);
  await seed('m6', w.keywordId, 'github', '2026-04-01T00:00:00Z', { relevance: 60, sentiment: 'positive', language: 'en', intents: ['praise'] });

  // Another workspace's mentions in the same days never count here.
  const other = await seedWorkspace(earshot, 'analytics-other');
  const [theirs] = await storePosts(earshot, other, [postBy(account('github', 'dev_m1'), 'Post elsewhere', new Date('2026-03-02T11:00:00Z'))]);
  await classify(earshot, theirs, { relevance: 99, sentiment: 'positive' });
});
afterAll(() => earshot?.stop());

const analytics = (query: string) => earshot.rest('GET', `/v1/analytics?${query}`, { key: w.key });
const zeros = (dates: string[]) => dates.map((date) => ({ start: day(date), count: 0 }));
const marchDays = Array.from({ length: 9 }, (_, n) => `2026-03-${String(n + 2).padStart(2, '0')}`);
const withCounts = (dates: string[], counts: Record<string, number>) => dates.map((date) => ({ start: day(date), count: counts[date] ?? 0 }));

describe('GET /v1/analytics', () => {
  it('counts relevant mentions by sentiment per UTC day, every day present, series largest first with their totals', async () => {
    const answer = await analytics('by=sentiment&bucket=day&since=2026-03-02T00:00:00Z&until=2026-03-10T23:59:59Z');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      by: 'sentiment',
      bucket: 'day',
      since: '2026-03-02T00:00:00.000Z',
      until: '2026-03-10T23:59:59.000Z',
      total: 3,
      totals: withCounts(marchDays, { '2026-03-02': 2, '2026-03-09': 1 }),
      series: [
        { key: 'negative', keyword: null, total: 1, points: withCounts(marchDays, { '2026-03-02': 1 }) },
        { key: 'neutral', keyword: null, total: 1, points: withCounts(marchDays, { '2026-03-09': 1 }) },
        { key: 'positive', keyword: null, total: 1, points: withCounts(marchDays, { '2026-03-02': 1 }) },
      ],
    });
  });

  it('counts a mention under each of its intents (none for no intent) but once in the totals', async () => {
    const answer = await analytics('by=intent&bucket=month&since=2026-03-01T00:00:00Z&until=2026-03-31T23:59:59Z&relevant=all');
    expect(answer.body).toMatchObject({
      total: 5,
      totals: [{ start: day('2026-03-01'), count: 5 }],
      series: [
        { key: 'none', total: 2, points: [{ start: day('2026-03-01'), count: 2 }] },
        { key: 'question', total: 2, points: [{ start: day('2026-03-01'), count: 2 }] },
        { key: 'buy_intent', total: 1, points: [{ start: day('2026-03-01'), count: 1 }] },
        { key: 'complaint', total: 1, points: [{ start: day('2026-03-01'), count: 1 }] },
      ],
    });
  });

  it('counts by keyword in Monday weeks, the keyword named through the gateway, and by language and platform', async () => {
    const weeks = ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30'];
    const byKeyword = await analytics('by=keyword&bucket=week&since=2026-03-04T00:00:00Z&until=2026-04-05T00:00:00Z&relevant=all');
    expect(byKeyword.body.totals).toEqual(withCounts(weeks, { '2026-03-02': 1, '2026-03-09': 2, '2026-03-30': 1 }));
    expect(byKeyword.body.series).toEqual([
      { key: w.keywordId, keyword: { id: w.keywordId, term: 'Acme' }, total: 2, points: withCounts(weeks, { '2026-03-02': 1, '2026-03-30': 1 }) },
      { key: globex, keyword: { id: globex, term: 'Globex' }, total: 2, points: withCounts(weeks, { '2026-03-09': 2 }) },
    ].sort((a, b) => a.key.localeCompare(b.key)));

    const byLanguage = await analytics('by=language&bucket=month&since=2026-03-01T00:00:00Z&until=2026-04-30T00:00:00Z&relevant=all');
    expect(byLanguage.body.series.map((s: { key: string; total: number }) => [s.key, s.total])).toEqual([['en', 3], ['unknown', 2], ['de', 1]]);

    const notRelevant = await analytics('by=platform&bucket=month&since=2026-03-01T00:00:00Z&until=2026-04-30T00:00:00Z&relevant=false&platforms=x,reddit');
    expect(notRelevant.body.series.map((s: { key: string; total: number }) => [s.key, s.total])).toEqual([['reddit', 1], ['x', 1]]);
    const oneKeyword = await analytics(`by=platform&bucket=month&since=2026-03-01T00:00:00Z&until=2026-04-30T00:00:00Z&keywordIds=${globex}`);
    expect(oneKeyword.body.series.map((s: { key: string; total: number }) => [s.key, s.total])).toEqual([['reddit', 1]]);
  });

  it('sums to what the mention list holds for the same keywords, platforms and relevance', async () => {
    const listCount = async (query: string) => {
      let count = 0;
      let cursor: string | null = null;
      do {
        const page: any = await earshot.rest('GET', `/v1/mentions?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`, { key: w.key });
        count += page.body.data.length;
        cursor = page.body.nextCursor;
      } while (cursor);
      return count;
    };
    const range = 'since=2020-01-01T00:00:00Z&until=2030-01-01T00:00:00Z&bucket=month';
    for (const [listQuery, analyticsQuery] of [
      ['', ''],
      ['&relevant=false', '&relevant=false'],
      [`&keywordIds=${globex}&relevant=false`, `&keywordIds=${globex}&relevant=false`],
      ['&platforms=x,github', '&platforms=x,github'],
      ['&platforms=x&platforms=github', '&platforms=x&platforms=github'],
      [`&keywordId=${w.keywordId}&platform=github`, `&keywordIds=${w.keywordId}&platforms=github`],
    ]) {
      for (const by of ['sentiment', 'intent', 'keyword']) {
        const counted = (await analytics(`by=${by}&${range}${analyticsQuery}`)).body;
        const inList = await listCount(listQuery);
        expect({ query: listQuery, by, total: counted.total, sumOfTotals: counted.totals.reduce((sum: number, p: { count: number }) => sum + p.count, 0) }).toEqual({
          query: listQuery,
          by,
          total: inList,
          sumOfTotals: inList,
        });
        if (by !== 'intent') expect(counted.series.reduce((sum: number, s: { total: number }) => sum + s.total, 0)).toBe(inList);
      }
    }
  });

  it('takes epoch milliseconds, defaults the range to the bucket, and answers GraphQL the same', async () => {
    const since = Date.parse('2026-03-02T00:00:00Z');
    const until = Date.parse('2026-03-03T00:00:00Z');
    const epoch = await analytics(`by=platform&bucket=hour&since=${since}&until=${until}`);
    expect(epoch.body).toMatchObject({ since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z', total: 2 });
    expect(epoch.body.totals).toHaveLength(25);
    expect(epoch.body.totals.filter((p: { count: number }) => p.count > 0)).toEqual([
      { start: '2026-03-02T10:00:00.000Z', count: 1 },
      { start: '2026-03-02T23:00:00.000Z', count: 1 },
    ]);

    const defaulted = await analytics('by=sentiment&until=2026-03-10T00:00:00Z');
    expect(defaulted.body).toMatchObject({ bucket: 'day', since: '2026-02-08T00:00:00.000Z', until: '2026-03-10T00:00:00.000Z' });
    expect(defaulted.body.totals).toHaveLength(31);

    const rest = await analytics(`by=keyword&bucket=week&since=2026-03-01T00:00:00Z&until=2026-04-05T00:00:00Z&relevant=all&platforms=reddit`);
    const viaGraphQL = await earshot.graphql(
      `query($platforms: [String!]) { mentionAnalytics(by: "keyword", bucket: "week", since: "2026-03-01T00:00:00Z", until: "2026-04-05T00:00:00Z", relevant: null, platforms: $platforms) {
        by bucket since until total totals { start count } series { key keyword { id term } total points { start count } } } }`,
      { platforms: ['reddit'] },
      w.key,
    );
    expect(viaGraphQL.body.data.mentionAnalytics).toEqual(rest.body);
  });

  it('cuts buckets in UTC whatever the database session’s time zone, across a change of clocks', async () => {
    const newYork = postgres(earshot.databaseUrl, { max: 1, onnotice: () => {}, transform: { column: { from: postgres.toCamel } }, connection: { timezone: 'America/New_York' } });
    try {
      for (const [bucket, until] of [['hour', '2026-03-20T00:00:00Z'], ['day', '2026-04-15T00:00:00Z'], ['week', '2026-04-15T00:00:00Z'], ['month', '2026-04-15T00:00:00Z']]) {
        const query = `by=platform&bucket=${bucket}&since=2026-03-01T00:00:00Z&until=${until}&relevant=all`;
        const rest = (await analytics(query)).body;
        const local = await mentionAnalytics(newYork, w.workspaceId, { by: 'platform', bucket, since: new Date('2026-03-01T00:00:00Z'), until: new Date(until), relevant: null }, new Date());
        // `keyword` is resolved by the keywords subgraph, so the bare count has none to compare.
        const counted = { ...rest, series: rest.series.map(({ keyword: _, ...series }: { keyword: unknown }) => series) };
        expect(JSON.parse(JSON.stringify(local))).toEqual(counted);
      }
      const days = (await analytics('by=platform&bucket=day&since=2026-03-07T00:00:00Z&until=2026-03-09T00:00:00Z&relevant=all')).body.totals;
      expect(days.map((point: { start: string }) => point.start)).toEqual([day('2026-03-07'), day('2026-03-08'), day('2026-03-09')]);
    } finally {
      await newYork.end();
    }
  });

  it('reads relevant mentions as one range of the index keyed by the relevance rule, never the table', async () => {
    let statement: { text: string; parameters: unknown[] } | undefined;
    const watched = postgres(earshot.databaseUrl, {
      max: 1,
      onnotice: () => {},
      transform: { column: { from: postgres.toCamel } },
      debug: (_connection, text, parameters) => {
        if (text.includes('/* countMentions */')) statement = { text, parameters: parameters as unknown[] };
      },
    });
    try {
      await mentionAnalytics(watched, w.workspaceId, { by: 'sentiment', bucket: 'day', since: new Date('2026-03-01T00:00:00Z'), until: new Date('2026-03-31T00:00:00Z') }, new Date());
      // Six mentions are a table the planner would read whole: these settings ask for the plan a large workspace gets,
      // and a vacuumed table, as a large one is, lets it price an index-only scan as one (no page left to visit).
      await watched`vacuum analyze mentions`;
      const plan = await watched.begin(async (sql) => {
        await sql`set local enable_seqscan = off`;
        await sql`set local enable_bitmapscan = off`;
        return (await sql.unsafe(`explain ${statement!.text}`, statement!.parameters as never[])).map((row) => Object.values(row)[0] as string);
      });
      // The table is partitioned by month (migration 053): each month holding the workspace's mentions is read as one range of its part of the index.
      const monthIndexes = (await watched<{ name: string }[]>`
        select inhrelid::regclass::text as name from pg_inherits where inhparent = 'mentions_by_relevance_and_publication'::regclass`).map((row) => row.name);
      const holding = (await watched<{ name: string }[]>`
        select distinct tableoid::regclass::text as name from mentions where workspace_id = ${w.workspaceId}`).map((row) => row.name);
      const scans = plan.flatMap((line, i) => (holding.some((name) => line.includes(` on ${name} `)) ? [i] : []));
      expect(scans).toHaveLength(holding.length);
      for (const scan of scans) {
        expect(monthIndexes.some((name) => plan[scan].includes(`Index Only Scan using ${name} `))).toBe(true);
        expect(plan[scan + 1]).toContain(`((COALESCE(verdict_relevant, (relevance >= ${relevanceLine}), false)) = true)`);
        expect(plan.slice(scan + 1, scan + 3).filter((line) => /Filter:/.test(line) && line.includes('relevance'))).toEqual([]);
      }
    } finally {
      await watched.end();
    }
  });

  it('refuses more than 1000 buckets, a range backwards and bad values: 400 validation_error naming the parameter', async () => {
    const exactly = await analytics('by=sentiment&bucket=hour&since=2026-01-01T00:00:00Z&until=2026-02-11T15:59:59Z');
    expect(exactly.body.totals).toHaveLength(1000);
    const expectError = async (query: string, error: object) => {
      const answer = await analytics(query);
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error: { ...error, requestId: answer.headers.get('x-request-id') } });
    };
    await expectError('by=sentiment&bucket=hour&since=2026-01-01T00:00:00Z&until=2026-02-11T16:00:00Z', {
      code: 'validation_error',
      field: 'bucket',
      message: 'bucket: the range holds 1001 hour buckets, at most 1000; choose a larger bucket or a shorter range',
    });
    await expectError('by=sentiment&since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', { code: 'validation_error', field: 'since', message: 'since: must not be after until' });
    await expectError('by=mood', { code: 'validation_error', field: 'by', message: 'by: must be one of sentiment, language, platform, keyword, intent' });
    await expectError('by=sentiment&since=yesterday', { code: 'validation_error', field: 'since', message: 'since: must be an ISO 8601 timestamp with an offset such as 2026-11-20T10:00:00Z, a date such as 2026-11-20, or epoch milliseconds' });
    const withoutBy = await analytics('bucket=day');
    expect({ status: withoutBy.status, code: withoutBy.body.error.code, field: withoutBy.body.error.field }).toEqual({ status: 400, code: 'validation_error', field: 'by' });
  });

  it('answers a keyword id of another workspace, or of none, 404 not_found naming keywordIds, as the mention list does', async () => {
    const other = await seedWorkspace(earshot, 'analytics-keywords');
    for (const id of [other.keywordId, 'kw_nothing']) {
      for (const path of [`/v1/analytics?by=sentiment&keywordIds=${w.keywordId},${id}`, `/v1/mentions?keywordIds=${w.keywordId},${id}`]) {
        const answer = await earshot.rest('GET', path, { key: w.key });
        expect({ path, status: answer.status, error: answer.body.error }).toEqual({
          path,
          status: 404,
          error: { code: 'not_found', field: 'keywordIds', message: `keywordIds: ${id} names no keyword of this workspace`, requestId: answer.headers.get('x-request-id') },
        });
      }
    }
    const graphql = await earshot.graphql(`query($ids: [ID!]) { mentionAnalytics(by: "sentiment", keywordIds: $ids) { total } }`, { ids: [other.keywordId] }, w.key);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'not_found', field: 'keywordIds' });
    // A request that is bad in itself is refused as such before its keywords are looked up.
    const backwards = await analytics(`by=sentiment&keywordIds=${other.keywordId}&since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z`);
    expect({ status: backwards.status, code: backwards.body.error.code, field: backwards.body.error.field }).toEqual({ status: 400, code: 'validation_error', field: 'since' });
  });

  it('writes verdicts through: a corrected sentiment counts as corrected, a relevance verdict moves a mention in or out', async () => {
    const range = 'by=sentiment&bucket=month&since=2026-03-01T00:00:00Z&until=2026-03-31T23:59:59Z';
    const series = async () => Object.fromEntries((await analytics(range)).body.series.map((s: { key: string; total: number }) => [s.key, s.total]));
    expect(await series()).toEqual({ negative: 1, neutral: 1, positive: 1 });
    await earshot.rest('PATCH', `/v1/mentions/${m.m2}`, { key: w.key, body: { sentiment: 'positive' } });
    expect(await series()).toEqual({ neutral: 1, positive: 2 });
    await earshot.rest('PATCH', `/v1/mentions/${m.m3}`, { key: w.key, body: { relevant: true } });
    await earshot.rest('PATCH', `/v1/mentions/${m.m1}`, { key: w.key, body: { relevant: false } });
    expect(await series()).toEqual({ neutral: 2, positive: 1 });
    await earshot.rest('PATCH', `/v1/mentions/${m.m2}`, { key: w.key, body: { sentiment: null } });
    expect(await series()).toEqual({ negative: 1, neutral: 2 });
  });
});
