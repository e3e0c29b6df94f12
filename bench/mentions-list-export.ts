import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { stringify } from 'csv-stringify/sync';
import { readConfig } from '../runtime/config.ts';
import { connect, type Sql } from '../runtime/database.ts';
import { startEarshot } from '../server/start.ts';
import { createKeyword } from '../subgraphs/keywords/index.ts';
import { exportRowLimit, recountKeywordMatchDays } from '../subgraphs/mentions/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';
import { bulkLoad } from './bulk-load.ts';
import { databaseBackendCpuSeconds } from './database-cpu.ts';
import { percentile } from './percentile.ts';

/**
 * Issue 14, point 10 (list and export): one workspace holding 1,000,000
 * mentions, seeded with set-based SQL. The list's p50 through the REST path
 * for the default view and three heavy filters, and a 10,000-row CSV
 * export (time and the process's peak memory above its resting size), each
 * beside the same statement run in bare SQL with postgres.js.
 */

const mentions = 1_000_000;
const authors = 50_000;
const keywords = 5;
/** Requests per case, after `warmUps` untimed ones. */
const samples = 60;
const warmUps = 10;
/** Exports timed (fewer than the 6 a minute a workspace may start). */
const exports = 4;
const aims = { listP50Ms: 20, exportMs: 1000, exportExtraMb: 64 };

const platforms = ['reddit', 'hackernews', 'bluesky', 'github', 'stackoverflow', 'devto', 'x', 'youtube', 'news', 'linkedin', 'tiktok', 'instagram'];

export interface MentionsSeedSize {
  mentions: number;
  authors: number;
}

/**
 * One workspace's mentions (1,000,000 unless `size` says otherwise), with independent, evenly spread
 * attributes (each drawn from its own hash of the row number): relevance
 * 0 to 99 (about 60% relevant), 2% never scored, three sentiments, six intent sets,
 * six languages and unknown, 5% machine-made, 10% done or ignored, 2%
 * assigned, 0.5% snoozed, a fifth of the posts replies, 30% with links (one
 * in a thousand to docs.rs), one post in 2,000 holding the word `zyxquux`,
 * a tenth of the authors of unknown reach; a mention every 30 s for a year.
 */
export async function seedMentions(
  pool: Sql,
  workspaceId: string,
  keywordIds: string[],
  assigneeId: string,
  size: MentionsSeedSize = { mentions, authors },
): Promise<void> {
  await bulkLoad(pool, ['authors', 'posts', 'mentions'], (sql) => load(sql, workspaceId, keywordIds, assigneeId, size));
  // Loaded with the triggers off, as a restore loads: the keywords' counted days (migration 072) are counted once after.
  await recountKeywordMatchDays(pool, keywordIds);
}

async function load(sql: Sql, workspaceId: string, keywordIds: string[], assigneeId: string, { mentions, authors }: MentionsSeedSize): Promise<void> {
  const pick = (column: string, salt: number, modulo: number) => sql.unsafe(`(abs(hashint4(${column} * 7 + ${salt})) % ${modulo})`);
  await sql`
    insert into authors (id, platform, platform_id, name, handle, url, followers)
    select 'aut_bench' || i, 'reddit', 'bench' || i, 'Author ' || i, 'author' || i, 'https://example.com/u/author' || i,
           case when ${pick('i', 1, 10)} = 0 then null else ${pick('i', 2, 100_000)} end
    from generate_series(1, ${authors}) i`;
  await sql`
    insert into posts (id, platform, external_id, url, text, published_at, reply_to, links, author_id)
    select 'pst_bench' || i, (${sql.array(platforms)}::text[])[1 + ${pick('i', 3, 12)}], 'bench' || i, 'https://example.com/p/' || i,
           case when ${pick('i', 4, 2000)} = 0 then 'A rare zyxquux sighting, post ' || i
                else (array['Has anyone tried Acme for monitoring?', 'Acme support answered within minutes', 'Comparing Acme and Widget for our team',
                            'Acme pricing went up again', 'Looking for an Acme alternative'])[1 + ${pick('i', 5, 5)}] || ' #' || i end,
           now() - (${mentions} - i) * interval '30 seconds' - ${pick('i', 6, 3600)} * interval '1 second',
           case when ${pick('i', 7, 5)} = 0 then 'parent' || i end,
           case when ${pick('i', 8, 1000)} = 0 then array['https://docs.rs/acme/latest']
                when ${pick('i', 8, 10)} < 3 then array[(array['https://github.com/acme/acme', 'https://www.youtube.com/watch?v=1', 'https://example.com/a',
                                                                  'https://blog.example.org/acme'])[1 + ${pick('i', 9, 4)}]]
                else '{}' end,
           'aut_bench' || (1 + ${pick('i', 10, authors)})
    from generate_series(1, ${mentions}) i`;
  await sql`
    insert into mentions (id, workspace_id, keyword_id, post_id, status, priority, relevance, sentiment, intents, automated, language,
                          classification_failed, classified_at, verdict_relevant, assignee_id, snoozed_until, created_at, published_at, platform, link_domains)
    select 'mm_bench' || lpad(i::text, 8, '0'), ${workspaceId}, (${sql.array(keywordIds)}::text[])[1 + ${pick('i', 11, keywordIds.length)}], 'pst_bench' || i,
           case ${pick('i', 12, 20)} when 0 then 'done' when 1 then 'ignored' else 'open' end,
           ${pick('i', 13, 10_000)} / 100.0,
           case when scored then ${pick('i', 14, 100)} end,
           case when scored then (array['positive', 'negative', 'neutral'])[1 + ${pick('i', 15, 3)}] end,
           case when scored then (array['{}', '{}', '{}', '{}', '{buy_intent}', '{question}', '{complaint}', '{complaint,question}', '{praise}', '{comparison}'])[1 + ${pick('i', 16, 10)}]::text[] end,
           case when scored then ${pick('i', 17, 20)} = 0 end,
           case when scored then (array['en', 'en', 'en', 'en', 'en', 'de', 'fr', 'es', 'ja', null])[1 + ${pick('i', 18, 10)}] end,
           not scored,
           case when scored then now() end,
           case ${pick('i', 19, 100)} when 0 then true when 1 then false end,
           case when ${pick('i', 20, 50)} = 0 then ${assigneeId} end,
           case when ${pick('i', 21, 200)} = 0 then now() + interval '1 day' end,
           now() - (${mentions} - i) * interval '30 seconds',
           p.published_at, p.platform, p.link_domains
    from generate_series(1, ${mentions}) i join posts p on p.id = 'pst_bench' || i, lateral (select ${pick('i', 22, 50)} <> 0 as scored) s`;
}

type Statement = postgres.PendingQuery<postgres.Row[]>;

interface ListCase {
  label: string;
  query: string;
  /** The statement Earshot's list sends for the query, written out, to run with postgres.js. */
  bare(sql: Sql, workspaceId: string): Statement;
}

/** The condition the list and the export add unless asked otherwise (spec 4.3 `includeMuted`), so the baselines run the same statements. */
const notByMutedPeople = (sql: Sql) => sql`not exists (select 1 from person_accounts pa join people pe on pe.id = pa.person_id
  where pa.workspace_id = m.workspace_id and pa.author_id = p.author_id and pe.muted)`;

/** What the list reads of a mention, its post and author (`mentionColumns`), and the defaults every case keeps: relevant, awake, no muted person's. */
const listStatement = (sql: Sql, workspaceId: string, condition: Statement, order: Statement = sql`m.created_at desc, m.id desc`) => sql`
  select m.id, m.workspace_id, m.keyword_id, m.post_id, m.status, m.fuzzy, m.delivered, m.priority, m.created_at,
         p.platform, p.external_id, p.url, p.text, p.published_at, p.reply_to, p.links, p.subreddit,
         a.id as author_id, a.name as author_name, a.handle as author_handle, a.url as author_url, a.avatar_url, a.followers, a.tags,
         m.relevance, m.sentiment, m.intents, m.automated, m.language, m.classification_note, m.classification_failed,
         m.classified_at, m.verdict_relevant, m.verdict_sentiment, m.assignee_id, m.snoozed_until, m.triage_note,
         to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_at
  from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
  where m.workspace_id = ${workspaceId}
    and coalesce(m.verdict_relevant, m.relevance >= 40, false)
    and (m.snoozed_until is null or m.snoozed_until <= now())
    and ${notByMutedPeople(sql)}
    and ${condition}
  order by ${order}
  limit 51`;

const listCases: ListCase[] = [
  { label: 'default view (relevant, awake, newest first)', query: '', bare: (sql, ws) => listStatement(sql, ws, sql`true`) },
  {
    label: 'default view by priority (`sort=priority`)',
    query: 'sort=priority',
    bare: (sql, ws) => listStatement(sql, ws, sql`true`, sql`m.priority desc, m.created_at desc, m.id desc`),
  },
  {
    label: '`q=zyxquux` (a word in one post of 2,000)',
    query: 'q=zyxquux',
    bare: (sql, ws) =>
      listStatement(sql, ws, sql`(p.text ilike '%zyxquux%' or p.author_id = any(array(select id from authors where name ilike '%zyxquux%')))`),
  },
  {
    label: '`q=alternative` (a word in one post of 5)',
    query: 'q=alternative',
    bare: (sql, ws) =>
      listStatement(sql, ws, sql`(p.text ilike '%alternative%' or p.author_id = any(array(select id from authors where name ilike '%alternative%')))`),
  },
  {
    label: '`linkHosts=docs.rs&minFollowers=1000`',
    query: 'linkHosts=docs.rs&minFollowers=1000',
    bare: (sql, ws) => listStatement(sql, ws, sql`cardinality(m.link_domains) > 0 and m.link_domains && '{docs.rs}'::text[] and a.followers >= 1000`),
  },
  {
    label: '`sentiments=negative&intents=complaint,question&languages=de&notPlatforms=reddit`',
    query: 'sentiments=negative&intents=complaint,question&languages=de&notPlatforms=reddit',
    bare: (sql, ws) =>
      listStatement(
        sql,
        ws,
        sql`coalesce(m.verdict_sentiment, m.sentiment) = any('{negative}') and m.intents && '{complaint,question}'::text[]
            and m.language = 'de' and not (p.platform = any('{reddit}'))`,
      ),
  },
];


async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function p50Of(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < warmUps; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await timed(run));
  return percentile(times, 0.5);
}

/** The process's peak resident size above its size before `run`, sampled every 5 ms while it runs. */
async function peakExtraMb(run: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  return (Math.max(peak, process.memoryUsage.rss()) - before) / 1024 / 1024;
}

async function readWhole(response: Response): Promise<number> {
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return bytes;
}

/** The export's statement written out: the columns of the CSV, newest match first, 10,000 rows. */
const exportStatement = (sql: Sql, workspaceId: string) => sql`
  select m.id, p.published_at, p.platform, k.term as keyword, a.name as author, a.url as author_url, a.followers as author_followers,
         m.relevance, coalesce(m.verdict_sentiment, m.sentiment) as sentiment, m.intents, m.status,
         coalesce(m.verdict_relevant, m.relevance >= 40, false) as relevant, m.delivered, p.url, left(p.text, 1000) as text, p.links
  from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id join keywords k on k.id = m.keyword_id
  where m.workspace_id = ${workspaceId}
    and coalesce(m.verdict_relevant, m.relevance >= 40, false)
    and (m.snoozed_until is null or m.snoozed_until <= now())
    and ${notByMutedPeople(sql)}
  order by m.created_at desc, m.id desc
  limit ${exportRowLimit}`;

async function explain(sql: Sql, statement: Statement): Promise<string> {
  const plan = await sql`explain (analyze, buffers off, costs off, timing off, summary off) ${statement}`;
  return plan.map((line) => `    ${Object.values(line)[0]}`).join('\n');
}

async function runMentionsBenchmark(environment: Parameters<Benchmark['run']>[0]): Promise<BenchReport> {
  const databaseUrl = await environment.createDatabase();
  const config = { ...readConfig({}), databaseUrl, port: 0, host: '127.0.0.1', logLevel: 'warn' as const, rateLimitPerMinute: 1_000_000_000, blueskyLive: false };
  const earshot = await startEarshot(config, 'all', environment.log);
  const sql = connect(databaseUrl, { max: 4 });
  try {
    const { workspace, apiKey, owner } = await provisionWorkspace(sql, 'Bench', { ownerEmail: 'owner@bench.example' });
    const keywordIds: string[] = [];
    for (let k = 0; k < keywords; k++) keywordIds.push((await createKeyword(sql, workspace.id, { term: `Acme${k}`, platforms: [] }, {})).keyword.id);
    const seeding = performance.now();
    await seedMentions(sql, workspace.id, keywordIds, owner!.id);
    const seedSeconds = (performance.now() - seeding) / 1000;
    process.stderr.write(`seeded ${mentions} mentions in ${seedSeconds.toFixed(0)} s\n`);
    const headers = { authorization: `Bearer ${apiKey}` };

    /**
     * `measure`'s p50, the CPU time PostgreSQL spent on this database per
     * request (all its backends, from /proc) and this process's own (the
     * client's side of each request included), which load stretches far
     * less than wall time.
     */
    const withCpu = async (measure: () => Promise<number>) => {
      const before = databaseBackendCpuSeconds(databaseUrl);
      const nodeBefore = process.cpuUsage();
      const p50 = await measure();
      const node = process.cpuUsage(nodeBefore);
      const after = databaseBackendCpuSeconds(databaseUrl);
      return {
        p50,
        cpuMs: before === null || after === null ? '' : ((after - before) * 1000) / (samples + warmUps),
        nodeCpuMs: (node.user + node.system) / 1000 / (samples + warmUps),
      };
    };
    const rows: BenchReport['rows'] = [];
    const plans: string[] = [];
    let slowestP50 = 0;
    for (const listCase of listCases) {
      plans.push(`${listCase.label}:\n${await explain(sql, listCase.bare(sql, workspace.id))}`);
      process.stderr.write(plans.at(-1) + '\n');
      const url = `${earshot.url}/v1/mentions?${listCase.query}`;
      const full = await withCpu(() =>
        p50Of(async () => {
          const response = await fetch(url, { headers });
          if (response.status !== 200) throw new Error(`${listCase.query}: ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
        }),
      );
      const bare = await withCpu(() => p50Of(() => listCase.bare(sql, workspace.id)));
      slowestP50 = Math.max(slowestP50, full.p50);
      rows.push({ label: `list: ${listCase.label}`, values: [full.p50, bare.p50, full.cpuMs, bare.cpuMs, full.nodeCpuMs, bare.nodeCpuMs, '', ''] });
    }

    // The export: the default view's newest 10,000 of about 590,000 matching mentions.
    const exportUrl = `${earshot.url}/v1/mentions/export.csv`;
    await readWhole(await fetch(exportUrl, { headers }));
    const exportTimes: number[] = [];
    const exportMemory: number[] = [];
    for (let i = 0; i < exports - 1; i++) {
      let elapsed = 0;
      exportMemory.push(await peakExtraMb(async () => (elapsed = await timed(async () => readWhole(await fetch(exportUrl, { headers }))))));
      exportTimes.push(elapsed);
    }
    const bareExport = async () => {
      for await (const batch of exportStatement(sql, workspace.id).cursor(500)) stringify(batch.map((row) => Object.values(row).map(String)));
    };
    const bareTimes: number[] = [];
    const bareMemory: number[] = [];
    for (let i = 0; i < exports - 1; i++) {
      let elapsed = 0;
      bareMemory.push(await peakExtraMb(async () => (elapsed = await timed(bareExport))));
      bareTimes.push(elapsed);
    }
    const exportMs = percentile(exportTimes, 0.5);
    const exportMb = Math.max(...exportMemory);
    rows.push({ label: `export: ${exportRowLimit.toLocaleString('en')} rows of CSV`, values: [exportMs, percentile(bareTimes, 0.5), '', '', '', '', exportMb, Math.max(...bareMemory)] });

    const met = slowestP50 <= aims.listP50Ms && exportMs <= aims.exportMs && exportMb <= aims.exportExtraMb;
    return {
      description:
        `${mentions.toLocaleString('en')} mentions of ${keywords} keywords in one workspace (${authors.toLocaleString('en')} authors), seeded with set-based SQL in ${seedSeconds.toFixed(0)} s. ` +
        `List: p50 of ${samples} requests one at a time (after ${warmUps}) through the REST path, page of 50; bare SQL: the same statement with postgres.js; ` +
        'Database CPU ms: what PostgreSQL spent per request on this database (its backends\' CPU time from /proc, warm-ups included); ' +
        'Node CPU ms: what this process spent per request (the REST path and its client, or postgres.js; process.cpuUsage, warm-ups included). ' +
        `Export: median of ${exports - 1} downloads read to the end (after one), and the peak resident memory of the process above its size before; ` +
        'bare SQL: the same rows through a postgres.js cursor into csv-stringify.',
      columns: ['Earshot ms', 'bare SQL ms', 'Earshot database CPU ms', 'bare SQL CPU ms', 'Earshot Node CPU ms', 'bare SQL Node CPU ms', 'Earshot peak extra MB', 'bare SQL peak extra MB'],
      rows,
      verdict:
        `Aims: list p50 under ${aims.listP50Ms} ms, export under ${aims.exportMs} ms and ${aims.exportExtraMb} MB extra: ${met ? 'met' : 'not met'}.\n\n` +
        'Plans of the list statements (EXPLAIN ANALYZE):\n\n```\n' + plans.join('\n\n') + '\n```\n\nPlan of the export statement:\n\n```\n' +
        (await explain(sql, exportStatement(sql, workspace.id))) + '\n```',
    };
  } finally {
    await sql.end();
    await earshot.stop();
  }
}

export const mentionsListAndExport: Benchmark = { name: 'Mentions: list filters and CSV export on 1,000,000 mentions', run: runMentionsBenchmark };
