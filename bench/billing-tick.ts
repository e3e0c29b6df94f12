import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { chargeDailyKeywordFees, type DailyTickReport } from '../subgraphs/billing/index.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';

/**
 * Issue 4 benchmark: the daily billing tick over 100,000 keywords in 10,000
 * workspaces (10 each), with the time it takes and the SQL statements it
 * sends (transaction control included). One workspace in ten cannot pay the
 * day and pauses; one in twenty crosses 20% of its credit and records
 * wallet.low. Aim: under 10 seconds on the 2-core machine.
 */

const workspaces = 10_000;
const keywordsPerWorkspace = 10;
const aimSeconds = 10;
const day = '2028-03-02';

/** A pool with `connect()`'s settings that counts every statement it sends. */
function countingPool(url: string): { sql: Sql; statements: () => number } {
  let statements = 0;
  const sql = postgres(url, {
    max: 10,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    connection: { application_name: 'earshot-bench' },
    debug: () => {
      statements += 1;
    },
  });
  return { sql, statements: () => statements };
}

/**
 * 10,000 workspaces with wallets, default groups and 10 keywords each, in a
 * handful of set-based statements. Balances in fifteenths of a cent: a day
 * of 10 keywords is 2,500; most wallets hold the 8,700 welcome credit, every
 * tenth 2,000 (too little: it pauses), every twentieth 3,900 (a day leaves
 * 1,400, under 20% of 8,700: wallet.low).
 */
async function seed(sql: Sql): Promise<void> {
  await sql`
    insert into workspaces (id, name, created_at)
    select 'org_bench' || lpad(i::text, 6, '0'), 'Bench ' || i, '2028-01-01' from generate_series(1, ${workspaces}) i`;
  await sql`
    insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths, created_at)
    select id, 1, 8700, '2028-01-01' from workspaces`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key, occurred_at)
    select 'led_welcome_' || w.id, w.id, 'welcome_credit',
           case when n % 10 = 0 then 2000 when n % 20 = 5 then 3900 else 8700 end,
           'welcome:' || w.id, '2028-01-01'
    from (select id, row_number() over (order by id) as n from workspaces) w`;
  await sql`
    insert into keyword_groups (id, workspace_id, name, is_default, created_at)
    select 'grp_' || id, id, 'Default', true, '2028-01-01' from workspaces`;
  await sql`
    insert into keywords (id, workspace_id, group_id, term, created_at)
    select 'kw_' || w.id || '_' || k, w.id, 'grp_' || w.id, 'term ' || k, '2028-01-01'
    from workspaces w cross join generate_series(1, ${keywordsPerWorkspace}) k`;
  await sql`analyze`;
}

async function timedTick(url: string): Promise<{ seconds: number; statements: number; report: DailyTickReport }> {
  const pool = countingPool(url);
  try {
    const started = performance.now();
    const report = await chargeDailyKeywordFees(pool.sql, day);
    return { seconds: (performance.now() - started) / 1000, statements: pool.statements(), report };
  } finally {
    await pool.sql.end();
  }
}

export async function runBillingTickBenchmark(environment: BenchEnvironment): Promise<BenchReport> {
  const url = await environment.createDatabase();
  const setup = connect(url, { max: 1 });
  try {
    await migrate(setup);
    await seed(setup);
  } finally {
    await setup.end();
  }
  const first = await timedTick(url);
  const again = await timedTick(url);

  const check = connect(url, { max: 1 });
  const [ledger] = await check`
    select count(*)::int as days, count(distinct keyword_id)::int as keywords from ledger_entries where kind = 'keyword_day'`;
  const [events] = await check`select count(*)::int as events from account_events`;
  await check.end();
  if (ledger.days !== ledger.keywords || ledger.days !== first.report.keywordDaysCharged) {
    throw new Error(`The tick charged ${ledger.days} keyword-days to ${ledger.keywords} keywords; it reported ${first.report.keywordDaysCharged}`);
  }

  const row = (label: string, run: typeof first) => ({
    label,
    values: [
      run.seconds,
      ...[run.statements, run.report.keywordDaysCharged, run.report.keywordsPaused, run.report.walletsPaused].map((count) => count.toLocaleString('en-US')),
    ],
  });
  const met = first.seconds < aimSeconds;
  return {
    description:
      `chargeDailyKeywordFees for ${(workspaces * keywordsPerWorkspace).toLocaleString('en-US')} keywords in ` +
      `${workspaces.toLocaleString('en-US')} workspaces on embedded PostgreSQL; statements counted by the client, BEGIN and COMMIT included; ` +
      `${events.events.toLocaleString('en-US')} account events recorded.`,
    columns: ['seconds', 'statements', 'keyword-days charged', 'keywords paused', 'wallets paused'],
    rows: [row('first run', first), row('same day again', again)],
    verdict: `Aim: under ${aimSeconds} s — ${met ? 'met' : 'missed'} (${first.seconds.toFixed(1)} s).`,
  };
}

export const billingTick: Benchmark = { name: 'Daily billing tick: 100,000 keywords', run: runBillingTickBenchmark };
