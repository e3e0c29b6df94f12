import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { connect, type Sql } from '../runtime/database.ts';
import type { TransactionSql } from 'postgres';
import { migrate } from '../runtime/migrate.ts';
import { encodeCursor } from '../subgraphs/cursor-pages.ts';
import { keywordDirectory } from '../subgraphs/keywords/index.ts';
import { listMentions, mentionAnalytics } from '../subgraphs/mentions/index.ts';
import {
  chargedItemFifteenths,
  chargedKeys,
  chargesPerDay,
  fifteenthsPerCent,
  insertItemCharges,
  itemChargesBetween,
  keywordDayFifteenths,
  monthOf,
  newestPaidCredit,
  welcomeCreditCents,
  workspaceMonthCost,
} from '../subgraphs/billing/index.ts';
import { newId } from '../runtime/ids.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';
import { percentile } from './percentile.ts';

/**
 * Issue 18 point 8: the mentions table partitioned by month of match time
 * (migration 053) and the ledger by month of its entries' time (056)
 * against the tables as they were, at `mentions` mentions (1,000,000
 * unless EARSHOT_BENCH_PARTITION_MENTIONS says otherwise). One database is
 * seeded with set-based SQL as the schema stood before 053: 100 workspaces
 * with ten keywords each, every post matched by all ten keywords of its
 * workspace, a match every few seconds over 36 months, the measured
 * workspace holding a tenth of the mentions; one post in 2,000 holds the
 * word `zyxquux`, one in 1,000 links to docs.rs (the rarest filters of
 * `npm run bench -- mentions list`); every mention charged at its match,
 * every keyword its days, a top-up a month per workspace. A copy of it is
 * then migrated (053 and 056 convert it), so both hold the very same rows.
 * The list, analytics and the ledger's statements of the measured
 * workspace run through the subgraphs' functions, one database then the
 * other, sample by sample.
 */

const mentions = Number(process.env.EARSHOT_BENCH_PARTITION_MENTIONS ?? 1_000_000);
const workspaces = 100;
const keywordsPerWorkspace = 10;
const authors = 50_000;
const months = 36;
const beforeMigration = '052_mentions_by_language.sql';
/**
 * The migrations since 052 that add columns the list reads (a post's title,
 * a verdict's score, a mention's link domains), run on the table as it was
 * too, after the copy: without them its statements fail there, and with
 * them the two databases differ by the months alone.
 */
const columnsListRead = ['068_post_titles.sql', '071_verdict_relevance.sql', '074_mention_link_domains.sql'];
const samples = { list: 100, rare: 20, month: 40, year: 10 };
/** Untimed runs first: more than five, so PostgreSQL has chosen between a custom and a generic plan for each statement. */
const warmUps = { list: 20, rare: 10 };

/**
 * The mentions, posts and authors, with the mentions' indexes and unique
 * keys dropped during the load and built once at the end (as a restore
 * does) and the foreign-key triggers skipped (the rows are made to fit
 * them); the posts' publication an hour or less before their match.
 */
async function seed(pool: Sql, workspaceIds: string[]): Promise<void> {
  const posts = mentions / keywordsPerWorkspace;
  await pool.begin(async (sql) => {
    const constraints = await sql<{ name: string; table: string; definition: string }[]>`
      select conname as name, conrelid::regclass::text as "table", pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid in ('mentions'::regclass, 'ledger_entries'::regclass) and contype = 'u'`;
    const indexes = await sql<{ name: string; definition: string }[]>`
      select indexname as name, indexdef as definition from pg_indexes
      where tablename in ('mentions', 'posts', 'authors', 'ledger_entries') and indexname not in (select conname from pg_constraint)`;
    for (const { name, table } of constraints) await sql`alter table ${sql(table)} drop constraint ${sql(name)}`;
    for (const { name } of indexes) await sql`drop index ${sql(name)}`;
    await sql`set local session_replication_role = replica`;
    const pick = (column: string, salt: number, modulo: number) => sql.unsafe(`(abs(hashint4(${column} * 7 + ${salt})) % ${modulo})`);
    await sql`
      insert into authors (id, platform, platform_id, name, handle, url, followers)
      select 'aut_bench' || i, 'reddit', 'bench' || i, 'Author ' || i, 'author' || i, 'https://example.com/u/author' || i, ${pick('i', 1, 100_000)}
      from generate_series(1, ${authors}) i`;
    // Post i is the measured workspace's (the first) when i is a multiple of ten, else one of the 99 others'.
    await sql`
      insert into posts (id, platform, external_id, url, text, published_at, author_id, created_at, links)
      select 'pst_bench' || i, 'reddit', 'bench' || i, 'https://example.com/p/' || i,
             case when ${pick('i', 11, 2000)} = 0 then 'A rare zyxquux sighting, post ' else 'A post about Acme #' end || i,
             matched - ${pick('i', 2, 3600)} * interval '1 second', 'aut_bench' || (1 + ${pick('i', 3, authors)}), matched,
             case when ${pick('i', 12, 1000)} = 0 then array['https://docs.rs/acme/latest'] else '{}' end
      from generate_series(1, ${posts}) i,
           lateral (select date_trunc('milliseconds', now() - (${posts} - i)::double precision / ${posts} * ${months} * interval '30.44 days') as matched) t`;
    await sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, status, priority, relevance, sentiment, intents, language,
                            classification_failed, classified_at, verdict_relevant, created_at, published_at, platform)
      select 'mm_bench' || lpad(((i - 1) * ${keywordsPerWorkspace} + k)::text, 9, '0'), w.id, w.id || '_kw' || k, p.id,
             case ${pick('i * 10 + k', 4, 20)} when 0 then 'done' when 1 then 'ignored' else 'open' end,
             ${pick('i * 10 + k', 5, 10_000)} / 100.0,
             ${pick('i * 10 + k', 6, 100)},
             (array['positive', 'negative', 'neutral'])[1 + ${pick('i * 10 + k', 7, 3)}],
             (array['{}', '{}', '{}', '{buy_intent}', '{question}', '{complaint}', '{praise}'])[1 + ${pick('i * 10 + k', 8, 7)}]::text[],
             (array['en', 'en', 'en', 'en', 'de', 'fr', 'es', null])[1 + ${pick('i * 10 + k', 9, 8)}],
             false, p.created_at, case ${pick('i * 10 + k', 10, 100)} when 0 then true when 1 then false end,
             p.created_at + k * interval '1 millisecond', p.published_at, p.platform
      from generate_series(1, ${posts}) i
      join posts p on p.id = 'pst_bench' || i
      cross join generate_series(0, ${keywordsPerWorkspace - 1}) k
      cross join lateral (select (${sql.array(workspaceIds)}::text[])[case when i % 10 = 0 then 1 else 2 + (i / 10) % ${workspaces - 1} end] as id) w`;
    // The ledger: every mention charged at its match, every keyword charged its days, a top-up a month per workspace.
    await sql`
      insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at, created_at)
      select 'led_' || id, workspace_id, 'mention', keyword_id, ${-chargedItemFifteenths}, 'mention:' || id, created_at, created_at from mentions`;
    await sql`
      insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at, created_at)
      select 'led_' || k.id || '_' || d::date, k.workspace_id, 'keyword_day', k.id, ${-keywordDayFifteenths}, 'keyword_day:' || k.id || ':' || d::date, d, d
      from keywords k
      cross join generate_series(date_trunc('day', now() - ${months} * interval '30.44 days'), now(), interval '1 day') d
      where k.workspace_id = any(${sql.array(workspaceIds)})`;
    await sql`
      insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key, occurred_at, created_at)
      select 'led_' || w.id || '_' || m, w.id, 'top_up', 1500000, 'top_up:ord_' || w.id || '_' || m, t.at, t.at
      from unnest(${sql.array(workspaceIds)}::text[]) as w(id)
      cross join generate_series(0, ${months}) m
      cross join lateral (select now() - m * interval '30.44 days' as at) t`;
    await sql`
      update wallets w set balance_fifteenths = s.total, on_welcome_credit = false
      from (select workspace_id, sum(amount_fifteenths) as total from ledger_entries group by workspace_id) s
      where w.workspace_id = s.workspace_id`;
    for (const { definition } of indexes) await sql.unsafe(definition);
    for (const { name, table, definition } of constraints) await sql.unsafe(`alter table ${table} add constraint ${name} ${definition}`);
  });
}

/** The workspaces as provisioning made them before the ledger's keys had a table of their own (056): a wallet with its welcome credit, a default group; ten keywords each. */
async function workspacesWithKeywords(sql: Sql): Promise<string[]> {
  const ids = Array.from({ length: workspaces }, (_, w) => `org_bench${String(w).padStart(3, '0')}`);
  await sql`insert into workspaces (id, name) select id, id from unnest(${sql.array(ids)}::text[]) as w(id)`;
  await sql`insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths) select id, 1, ${welcomeCreditCents * fifteenthsPerCent} from workspaces`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key)
    select 'led_welcome_' || id, id, 'welcome_credit', ${welcomeCreditCents * fifteenthsPerCent}, 'welcome:' || id from workspaces`;
  await sql`insert into keyword_groups (id, workspace_id, name, is_default) select 'grp_' || id, id, 'Default', true from workspaces`;
  await sql`
    insert into keywords (id, workspace_id, group_id, term)
    select g.workspace_id || '_kw' || k, g.workspace_id, g.id, 'Acme ' || k
    from keyword_groups g cross join generate_series(0, ${keywordsPerWorkspace - 1}) k
    where g.is_default and g.workspace_id = any(${sql.array(ids)})`;
  return ids;
}

/** A long run says where it is. */
const progress = (message: string) => process.stderr.write(`  partitions: ${message}\n`);

/** A statement as postgres.js sent it, to replay on either database. */
interface Statement {
  text: string;
  parameters: unknown[];
}

interface Case {
  label: string;
  count: number;
  /** What the case sends to the table as it was (`before`) and to the months (`after`). */
  statements(): Promise<{ before: Statement[]; after: Statement[] }>;
  /** A setting both sessions run the case under. */
  setting?: string;
  /** A filter few mentions pass: fewer runs, each reading every month. */
  rare?: boolean;
  /** Statements that write: each run in a transaction rolled back, so every run writes the same rows anew. */
  writes?: boolean;
}

const rolledBack = new Error('rolled back');

/** Runs `work` in a transaction and rolls it back. */
async function rolledBackTransaction(sql: Sql, work: (tx: TransactionSql) => Promise<unknown>): Promise<void> {
  await sql
    .begin(async (tx) => {
      await work(tx);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
}

/** The ledger's statements as they were before migration 056 (its keys in the ledger, the newest paid credit read in one statement): the same parameters. */
const ledgerBefore056 = {
  newestPaidCredit: `
    /* newestPaidCredit */
    select kind, amount_fifteenths::float8 as fifteenths, idempotency_key, occurred_at
    from ledger_entries
    where workspace_id = $1 and kind in ('top_up', 'operator_credit')
    order by occurred_at desc, created_at desc
    limit 1`,
  chargedKeys: `
    /* chargedKeys */
    select wanted.key as idempotency_key
    from unnest($1::text[]) as wanted(key)
    cross join lateral (select 1 from ledger_entries l where l.idempotency_key = wanted.key limit 1) charged`,
  insertItemCharges: `
    /* insertItemCharges */
    insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at)
    select id, workspace_id, kind, keyword_id, $1, idempotency_key, occurred_at
    from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
         as c(id, workspace_id, kind, keyword_id, idempotency_key, occurred_at)
    on conflict (idempotency_key) do nothing`,
};

/** The statements holding `marker` that `run` sends, caught on the wire. */
async function captured(url: string, marker: string, run: (sql: Sql) => Promise<unknown>): Promise<Statement[]> {
  const caught: Statement[] = [];
  const listening = postgres(url, {
    max: 1,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    debug: (_connection, text, parameters) => {
      if (text.includes(marker)) caught.push({ text, parameters: parameters as unknown[] });
    },
  });
  try {
    // The array types first (connectWithArrayTypes): a filter's arrays are sent as arrays.
    await listening`select 1`;
    await run(listening as unknown as Sql);
  } finally {
    await listening.end();
  }
  return caught;
}

/** The list's statement with its limit a parameter, as the list by priority sent it before it wrote its limit into its text. */
function withLimitParameter(statement: Statement): Statement {
  const limit = / limit (\d+)\s*$/.exec(statement.text);
  if (!limit) return statement;
  return { text: `${statement.text.slice(0, limit.index)} limit $${statement.parameters.length + 1}`, parameters: [...statement.parameters, Number(limit[1])] };
}

/**
 * The list's statement as it was before migration 053: the page in one statement, no month bounds (the list by priority
 * never had any, nor, since it reads every month at once, a list naming link hosts), the limit a parameter.
 */
function withoutMonthBounds(statement: Statement): Statement {
  const text = statement.text.replace(/ and m\.created_at (>=|<) '[^']+'::timestamptz/g, '');
  const everyMonth = statement.text.includes('m.priority desc') || statement.text.includes('link_domains &&');
  if (text === statement.text && !everyMonth) throw new Error('the list statement no longer names month bounds');
  return withLimitParameter({ text, parameters: statement.parameters });
}

/** A ledger statement with its entry-time bounds parameters, as it was before 056 wrote month bounds into its text. */
function withEntryTimeParameters(statement: Statement): Statement {
  const parameters = [...statement.parameters];
  const text = statement.text.replace(/and occurred_at (>=|<) '([^']+)'::timestamptz/g, (_bound, operator: string, at: string) => {
    parameters.push(at);
    return `and occurred_at ${operator} $${parameters.length}`;
  });
  return { text, parameters };
}

/** The analytics statement as it was before migration 053: no bound by match time (its parameter kept, unused, so the numbering holds). */
function withoutMatchTimeBound(statement: Statement): Statement {
  const text = statement.text.replace(/and m\.created_at >= (\$\d+)/, 'and $1::timestamptz is not null');
  if (text === statement.text) throw new Error('the analytics statement no longer bounds the match time');
  return { text, parameters: statement.parameters };
}

export const partitionsBenchmark: Benchmark = {
  name: 'partitions: the mentions table by month of match time, the ledger by month',
  async run(environment: BenchEnvironment): Promise<BenchReport> {
    const unpartitionedUrl = await environment.createDatabase();
    const unpartitioned = connect(unpartitionedUrl, { max: 1 });
    const admin = connect(environment.adminUrl, { max: 1 });
    let partitioned: Sql | undefined;
    try {
      await migrate(unpartitioned, { through: beforeMigration });
      const workspaceIds = await workspacesWithKeywords(unpartitioned);
      progress(`seeding ${mentions.toLocaleString('en-US')} mentions`);
      let started = performance.now();
      await seed(unpartitioned, workspaceIds);
      const seedSeconds = (performance.now() - started) / 1000;
      await unpartitioned.end();

      // The same rows, then converted by the migration as a deployment's database would be.
      const name = new URL(unpartitionedUrl).pathname.slice(1);
      await admin.unsafe(`create database ${name}_by_month template ${name} strategy file_copy`);
      const partitionedUrl = Object.assign(new URL(unpartitionedUrl), { pathname: `/${name}_by_month` }).toString();
      partitioned = connect(partitionedUrl, { max: 1 });
      started = performance.now();
      await migrate(partitioned);
      const migrateSeconds = (performance.now() - started) / 1000;
      const databases = [connect(unpartitionedUrl, { max: 1 }), partitioned];
      for (const file of columnsListRead) await databases[0].unsafe(await readFile(new URL(`../schema/${file}`, import.meta.url), 'utf8'));
      // The conversion leaves the copy's pages dirty: written out now, not while the first case is timed.
      for (const sql of databases) {
        await sql`vacuum (analyze)`;
        await sql`checkpoint`;
      }
      progress(`seeded in ${seedSeconds.toFixed(0)} s, converted in ${migrateSeconds.toFixed(0)} s; timing`);

      const [measured] = workspaceIds;
      const [yearDeep] = await databases[0]<{ at: string; id: string }[]>`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id from mentions
        where workspace_id = ${measured} and created_at <= now() - interval '1 year' order by created_at desc, id desc limit 1`;
      const now = new Date();
      const day = 86_400_000;
      const size = `${mentions.toLocaleString('en-US')}`;
      const list = (args: Parameters<typeof listMentions>[3]) => async () => {
        const after = await captured(partitionedUrl, '/* listMentionsPage */', (sql) => listMentions(sql, keywordDirectory, measured, args));
        return { before: [withoutMonthBounds(after[0])], after };
      };
      const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      // The ledger's reads as they were before 056 on the ledger as it was: their month bounds parameters.
      const ledgerReads = (reads: [string, (sql: Sql) => Promise<unknown>][]) => async () => {
        const sent = (await Promise.all(reads.map(([marker, read]) => captured(partitionedUrl, marker, read)))).flat();
        return { before: sent.map(withEntryTimeParameters), after: sent };
      };
      const analytics = (request: Record<string, unknown>) => async () => {
        const after = await captured(partitionedUrl, '/* countMentions */', (sql) => mentionAnalytics(sql, measured, request, now));
        return { before: after.map(withoutMatchTimeBound), after };
      };
      const cases: Case[] = [
        { label: 'list: first page (relevant, awake, newest first)', count: samples.list, statements: list({}) },
        { label: 'list: filtered page (negative, German)', count: samples.list, statements: list({ filter: { sentiments: ['negative'], languages: ['de'] } }) },
        { label: 'list: a page a year deep (cursor)', count: samples.list, statements: list({ after: encodeCursor(['newest', yearDeep.at, yearDeep.id]) }) },
        { label: 'list: by priority (sort=priority)', count: samples.list, statements: list({ sort: 'priority' }) },
        {
          // The months as the list by priority read them before its limit went into its text: planned anew on every call.
          label: 'list: by priority, its limit a parameter',
          count: samples.list,
          statements: async () => {
            const { before, after } = await list({ sort: 'priority' })();
            return { before, after: after.map(withLimitParameter) };
          },
        },
        {
          label: 'list: by priority, generic plan (plan_cache_mode)',
          count: samples.list,
          statements: list({ sort: 'priority' }),
          setting: 'set plan_cache_mode = force_generic_plan',
        },
        ...[undefined, 'set plan_cache_mode = force_custom_plan'].flatMap((setting) => {
          const planned = setting ? ', custom plans (plan_cache_mode)' : '';
          return [
            { label: `list: q=zyxquux (one post in 2,000)${planned}`, count: samples.rare, rare: true, setting, statements: list({ filter: { q: 'zyxquux' } }) },
            {
              label: `list: linkHosts=docs.rs, minFollowers=1000${planned}`,
              count: samples.rare,
              rare: true,
              setting,
              statements: list({ filter: { linkHosts: ['docs.rs'], minFollowers: 1000 } }),
            },
          ];
        }),
        {
          // What findMention reads on each schema: by id alone, then through mention_keys to the mention's month.
          label: 'a mention by id, a year old',
          count: samples.list,
          statements: async () => ({
            before: [{ text: 'select m.* from mentions m where m.id = $1 and m.workspace_id = $2', parameters: [yearDeep.id, measured] }],
            after: [
              {
                text: 'select m.* from mention_keys k join mentions m on m.id = k.id and m.created_at = k.created_at where k.id = $1 and m.workspace_id = $2',
                parameters: [yearDeep.id, measured],
              },
            ],
          }),
        },
        {
          label: 'analytics: by sentiment, 30 days by day',
          count: samples.month,
          statements: analytics({ by: 'sentiment', bucket: 'day', since: new Date(now.getTime() - 30 * day), until: now }),
        },
        {
          label: 'analytics: by keyword, a year by month (every mention)',
          count: samples.year,
          statements: analytics({ by: 'keyword', bucket: 'month', since: new Date(now.getTime() - 365 * day), until: now, relevant: null }),
        },
        // The balance itself is the wallet row's (a trigger keeps it); these are the ledger's reads of the wallet's figures.
        {
          label: 'ledger: charges of the last 7 days (the daily burn)',
          count: samples.list,
          statements: ledgerReads([['/* itemChargesBetween */', (sql) => itemChargesBetween(sql, measured, new Date(today.getTime() - 7 * day), today)]]),
        },
        {
          label: 'ledger: newest paid credit',
          count: samples.list,
          statements: async () => ({
            before: [{ text: ledgerBefore056.newestPaidCredit, parameters: [measured] }],
            after: await captured(partitionedUrl, '/* newestPaidCredit */', (sql) => newestPaidCredit(sql, measured, now)),
          }),
        },
        {
          label: 'ledger: the month’s cost',
          count: samples.list,
          statements: ledgerReads([['/* workspaceMonthCost */', (sql) => workspaceMonthCost(sql, measured, monthOf(now))]]),
        },
        {
          label: 'ledger: usage by day, 30 days',
          count: samples.list,
          statements: ledgerReads([['/* chargesPerDay */', (sql) => chargesPerDay(sql, measured, new Date(today.getTime() - 29 * day), new Date(today.getTime() + day))]]),
        },
        {
          label: 'ledger: charging 50 mentions (keys charged before, then the charges)',
          count: samples.list,
          writes: true,
          statements: async () => {
            const charges = Array.from({ length: 50 }, () => ({ workspaceId: measured, keywordId: `${measured}_kw0`, kind: 'mention' as const, itemId: newId('mm'), at: now }));
            const [keys] = await captured(partitionedUrl, '/* chargedKeys */', (sql) =>
              rolledBackTransaction(sql, (tx) => chargedKeys(tx, charges.map((charge) => `mention:${charge.itemId}`))),
            );
            const [insert] = await captured(partitionedUrl, '/* insertItemCharges */', (sql) => rolledBackTransaction(sql, (tx) => insertItemCharges(tx, charges)));
            return {
              before: [
                { text: ledgerBefore056.chargedKeys, parameters: keys.parameters },
                { text: ledgerBefore056.insertItemCharges, parameters: insert.parameters },
              ],
              after: [keys, insert],
            };
          },
        },
      ];
      const rows = [];
      for (const { label, count, statements, setting, rare, writes } of cases) {
        const { before, after } = await statements();
        for (const sql of databases) await sql.unsafe(setting ?? 'reset plan_cache_mode');
        const send = async (sql: Sql | TransactionSql, partitioned: boolean) => {
          for (const { text, parameters } of partitioned ? after : before) await sql.unsafe(text, parameters as never[], { prepare: true });
        };
        const run = async (sql: Sql, partitioned: boolean) => {
          if (writes) await rolledBackTransaction(sql, (tx) => send(tx, partitioned));
          else await send(sql, partitioned);
        };
        const took: number[][] = [[], []];
        for (let i = 0; i < (rare ? warmUps.rare : warmUps.list); i++) for (const [d, sql] of databases.entries()) await run(sql, d === 1);
        // Each database first every other time, so neither always runs just after the other.
        for (let i = 0; i < count; i++) {
          for (const d of i % 2 === 0 ? [0, 1] : [1, 0]) {
            const sql = databases[d];
            const at = performance.now();
            await run(sql, d === 1);
            took[d].push(performance.now() - at);
          }
        }
        const [unpartitionedTimes, partitionedTimes] = took.map((times) => ({ p50: percentile(times, 0.5), p99: percentile(times, 0.99) }));
        rows.push({ label: `${label}, ${size}`, values: [unpartitionedTimes.p50, unpartitionedTimes.p99, partitionedTimes.p50, partitionedTimes.p99, `${(partitionedTimes.p50 / unpartitionedTimes.p50).toFixed(2)}x`] });
      }
      await databases[0].end();
      return {
        description:
          `${size} mentions of ${workspaces} workspaces over ${months} months (the measured workspace ${(mentions / 10).toLocaleString('en-US')}), ` +
          `every mention charged, every keyword its days, a top-up a month per workspace, seeded in ${seedSeconds.toFixed(0)} s; the copy converted by migrations 053 and 056 in ${migrateSeconds.toFixed(0)} s. ` +
          `Each case replays, with postgres.js, the statements the mentions or billing subgraph sends for it (caught on the wire) on the months, and the same statements as ` +
          `they were before migrations 053 and 056 (no month bounds in the list, its limit a parameter, no match-time bound in analytics, the ledger's keys in the ledger) on the tables as they were, ` +
          `a charge's in a transaction rolled back, the two databases alternating, ` +
          `each first every other time, ${samples.list} timed runs per list case (${samples.rare} for a rare filter), ` +
          `${samples.month} for the month of analytics, ${samples.year} for the year, after ${warmUps.list} untimed (${warmUps.rare} for a rare filter), both databases vacuumed, analyzed and checkpointed first.`,
        columns: ['unpartitioned p50 ms', 'unpartitioned p99 ms', 'by month p50 ms', 'by month p99 ms', 'p50 ratio'],
        rows,
      };
    } finally {
      await partitioned?.end();
      await admin.end();
    }
  },
};
