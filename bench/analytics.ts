import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { readConfig } from '../runtime/config.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { startEarshot } from '../server/start.ts';
import { mentionAnalytics } from '../subgraphs/mentions/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';
import { bulkLoad } from './bulk-load.ts';

/**
 * Issue 14 point 10, analytics: `GET /v1/analytics` over a workspace of
 * 1,000,000 mentions published over a year, through the whole REST path,
 * beside the very statement the mentions subgraph sends, run bare with
 * postgres.js on the same database. Aim: p50 under 100 ms for a month of
 * days. A year by keyword (every mention counted) is shown too.
 */

const mentions = 1_000_000;
const authors = 50_000;
const keywords = 20;
const days = 365;
const warmUps = 3;
/** Requests timed per row; the year-long count reads every mention, so it is timed fewer times. */
const samples = { month: 40, year: 10 };
const aimMs = 100;
const now = new Date('2028-06-30T12:00:00Z');

/**
 * One workspace of `mentions` mentions over `days` days before `now`, in a
 * few set-based statements: posts spread over five platforms and `authors`
 * accounts, classified with a spread of relevance, sentiment, languages and
 * intents, one in a hundred with a user's verdict.
 */
export async function seedAnalytics(sql: Sql, workspaceId: string): Promise<void> {
  await sql`
    insert into keywords (id, workspace_id, group_id, term, created_at)
    select 'kw_bench' || lpad(k::text, 2, '0'), ${workspaceId}, g.id, 'term ' || k, ${now}
    from generate_series(1, ${keywords}) k, keyword_groups g where g.workspace_id = ${workspaceId} and g.is_default`;
  await bulkLoad(sql, ['authors', 'posts', 'mentions'], async (load) => {
    await load`
      insert into authors (id, platform, platform_id, name, handle, url)
      select 'aut_bench' || i, (array['reddit','hackernews','github','x','bluesky'])[1 + i % 5], 'acct' || i, 'Author ' || i, 'author' || i,
             'https://example.com/author' || i
      from generate_series(1, ${authors}) i`;
    await load`
      insert into posts (id, platform, external_id, url, text, published_at, author_id)
      select 'pst_bench' || i, (array['reddit','hackernews','github','x','bluesky'])[1 + (1 + i % ${authors}) % 5], 'post' || i,
             'https://example.com/post' || i, 'A post about term ' || (i % ${keywords}),
             ${now}::timestamptz - make_interval(secs => (i::double precision / ${mentions}) * ${days} * 86400),
             'aut_bench' || (1 + i % ${authors})
      from generate_series(1, ${mentions}) i`;
    await load`
      insert into mentions (id, workspace_id, keyword_id, post_id, published_at, platform, relevance, sentiment, intents, automated, language,
                            classified_at, verdict_relevant, verdict_sentiment, created_at)
      select 'mm_bench' || i, ${workspaceId}, 'kw_bench' || lpad((1 + i % ${keywords})::text, 2, '0'), p.id, p.published_at, p.platform,
             (i * 37) % 101,
             (array['positive','negative','neutral'])[1 + (i * 7) % 3],
             case i % 6 when 0 then '{buy_intent,question}'::text[] when 1 then '{complaint}' when 2 then '{praise}' else '{}' end,
             i % 9 = 0,
             (array['en','en','en','de','fr','es', null])[1 + i % 7],
             p.published_at,
             case when i % 100 = 0 then i % 200 = 0 end,
             case when i % 100 = 50 then 'positive' end,
             p.published_at
      from generate_series(1, ${mentions}) i join posts p on p.id = 'pst_bench' || i`;
  });
  // Index-only scans skip the heap once the visibility map is set.
  await sql`vacuum mentions`;
}

interface Timing {
  p50: number;
  p99: number;
}

async function time(count: number, run: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < warmUps; i++) await run();
  const took: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return { p50: took[Math.floor(count / 2)], p99: took[Math.min(count - 1, Math.ceil(count * 0.99) - 1)] };
}

/**
 * CPU time a PostgreSQL backend process has used, in ms, from Linux's
 * `/proc/<pid>/stat` (utime and stime, 100 ticks a second); null elsewhere.
 * On a shared machine this says what a statement costs, whatever share of
 * the CPU the run got.
 */
function backendCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The statement the subgraph sends for a request, and its parameters, caught on the wire. */
async function capturedStatement(url: string, workspaceId: string, request: Record<string, unknown>): Promise<{ text: string; parameters: unknown[] }> {
  let caught: { text: string; parameters: unknown[] } | undefined;
  const listening = postgres(url, {
    max: 1,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    debug: (_connection, text, parameters) => {
      if (text.includes('/* countMentions */')) caught = { text, parameters: parameters as unknown[] };
    },
  });
  try {
    await mentionAnalytics(listening, workspaceId, request, now);
  } finally {
    await listening.end();
  }
  if (!caught) throw new Error('the analytics statement was not seen');
  return caught;
}

export async function runAnalyticsBenchmark(environment: BenchEnvironment): Promise<BenchReport> {
  const databaseUrl = await environment.createDatabase();
  const sql = connect(databaseUrl);
  const setupStarted = performance.now();
  await migrate(sql);
  const { workspace, apiKey } = await provisionWorkspace(sql, 'Bench analytics');
  await seedAnalytics(sql, workspace.id);
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  const config = { ...readConfig({}), databaseUrl, port: 0, host: '127.0.0.1', logLevel: 'warn' as const, rateLimitPerMinute: 1_000_000_000, blueskyLive: false };
  const earshot = await startEarshot(config, 'all', environment.log);
  try {
    const monthAgo = new Date(now.getTime() - 30 * 86_400_000);
    const yearAgo = new Date(now.getTime() - days * 86_400_000);
    const requests = [
      { label: 'by sentiment, 30 days by day', samples: samples.month, query: { by: 'sentiment', bucket: 'day', since: monthAgo, until: now } },
      { label: 'by intent, 30 days by day', samples: samples.month, query: { by: 'intent', bucket: 'day', since: monthAgo, until: now } },
      { label: 'by keyword, a year by month (every mention)', samples: samples.year, query: { by: 'keyword', bucket: 'month', since: yearAgo, until: now, relevant: null } },
    ];
    const plans: string[] = [];
    /** One row: the statement bare first (it has no deadline), then the whole path, which answers 503 past its 4 s statement limit. */
    const measure = async (request: (typeof requests)[number]) => {
      const statement = await capturedStatement(databaseUrl, workspace.id, request.query);
      const explained = await sql.unsafe(`explain (analyze, buffers, costs off) ${statement.text}`, statement.parameters as never[]);
      plans.push(`${request.label}:\n${explained.map((row) => `    ${Object.values(row)[0]}`).join('\n')}`);
      const [counted] = await sql.unsafe(`select sum(count)::int as total from (${statement.text}) cells where total`, statement.parameters as never[]);
      const backend = await sql.reserve();
      const [{ pid }] = await backend<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await backend.unsafe(statement.text, statement.parameters as never[]);
      const cpuBefore = backendCpuMs(pid);
      const bare = await time(request.samples, () => backend.unsafe(statement.text, statement.parameters as never[]));
      const cpuAfter = backendCpuMs(pid);
      backend.release();
      const cpuPerRequest = cpuBefore === null || cpuAfter === null ? '' : (cpuAfter - cpuBefore) / (request.samples + warmUps);
      const label = `${request.label} (${Number(counted.total).toLocaleString('en-US')} mentions)`;
      const search = new URLSearchParams({
        by: request.query.by as string,
        bucket: request.query.bucket as string,
        since: request.query.since.toISOString(),
        until: request.query.until.toISOString(),
        ...('relevant' in request.query ? { relevant: 'all' } : {}),
      });
      try {
        const full = await time(request.samples, async () => {
          const response = await fetch(`${earshot.url}/v1/analytics?${search}`, { headers: { authorization: `Bearer ${apiKey}` } });
          if (response.status !== 200) throw new Error(`${response.status} ${(await response.json() as { error: { code: string } }).error.code}`);
          await response.arrayBuffer();
        });
        return { label, p50: full.p50, values: [full.p50, full.p99, bare.p50, bare.p99, cpuPerRequest, `${(full.p50 / bare.p50).toFixed(1)}x`] };
      } catch (error) {
        return { label, p50: Infinity, values: [`failed: ${(error as Error).message}`, '', bare.p50, bare.p99, cpuPerRequest, ''] };
      }
    };
    const rows = [];
    for (const request of requests) rows.push(await measure(request));
    const aimMet = rows.filter((row) => row.label.includes('30 days')).every((row) => row.p50 < aimMs);
    return {
      description:
        `${mentions.toLocaleString('en-US')} mentions in one workspace over ${days} days (${keywords} keywords, ${authors.toLocaleString('en-US')} authors; ` +
        `seeded and vacuumed in ${setupSeconds.toFixed(0)} s). Each request ${warmUps} times to warm up, then ${samples.month} times ` +
        `(${samples.year} for the year) one after another: ` +
        `Earshot is \`GET /v1/analytics\` through the public port (facade → gateway → mentions subgraph → PostgreSQL), ` +
        `the baseline the same SQL statement the subgraph sends, run with postgres.js; its CPU ms are the PostgreSQL backend's own ` +
        `CPU time per request (/proc), what the statement costs whatever share of the machine the run got.`,
      columns: ['Earshot p50 ms', 'Earshot p99 ms', 'bare SQL p50 ms', 'bare SQL p99 ms', 'bare SQL CPU ms', 'p50 ratio'],
      rows: rows.map(({ label, values }) => ({ label, values })),
      verdict: `Aim: p50 under ${aimMs} ms for a month of days — ${aimMet ? 'met' : 'missed'}.\n\nPlans of the statements (EXPLAIN ANALYZE, BUFFERS):\n\n\`\`\`\n${plans.join('\n\n')}\n\`\`\``,
    };
  } finally {
    await earshot.stop();
    await sql.end();
  }
}

export const analyticsBenchmark: Benchmark = { name: 'Mention analytics: 1,000,000 mentions', run: runAnalyticsBenchmark };
