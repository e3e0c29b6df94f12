import { connect } from '../runtime/database.ts';

/** What one database ran per request: statements in all, and by the `/* queryName *\/` each starts with. */
export interface StatementCounts {
  perRequest: number;
  byName: { name: string; perRequest: number; meanMs: number }[];
}

const databaseOf = (databaseUrl: string) => new URL(databaseUrl).pathname.slice(1);
const adminOf = (adminUrl: string, databaseUrl: string) => connect(new URL(`/${databaseOf(databaseUrl)}`, adminUrl).toString(), { max: 1 });

/** Has pg_stat_statements count the statements of one database's sessions: call it before anything connects to it. */
export async function trackStatements(adminUrl: string, databaseUrl: string): Promise<void> {
  const admin = adminOf(adminUrl, databaseUrl);
  try {
    await admin`create extension if not exists pg_stat_statements`;
    await admin.unsafe(`alter database "${databaseOf(databaseUrl)}" set pg_stat_statements.track = 'top'`);
  } finally {
    await admin.end();
  }
}

// pg_stat_statements keeps a statement's text without its leading comment, so a name is its first words.
const queryName = (text: string) => /\/\*\s*(\w+)\s*\*\//.exec(text)?.[1] ?? text.replace(/\s+/g, ' ').trim().slice(0, 60);

/**
 * Counts the statements `requests` calls of `run` make on one database with
 * pg_stat_statements (loaded by the bench environment, switched on for the
 * database by `trackStatements`). Statements that fewer than half the
 * requests made are left out: the job queue's, on their timers, and
 * upkeep once a minute. `run` must make its requests one after another.
 */
export async function countStatements(adminUrl: string, databaseUrl: string, requests: number, run: () => Promise<void>): Promise<StatementCounts> {
  const database = databaseOf(databaseUrl);
  const admin = adminOf(adminUrl, databaseUrl);
  try {
    await admin`select pg_stat_statements_reset()`;
    for (let i = 0; i < requests; i++) await run();
    const rows = await admin<{ query: string; calls: string; meanExecTime: number }[]>`
      select query, calls, mean_exec_time from pg_stat_statements
      where dbid = (select oid from pg_database where datname = ${database}) and query not like '%pgboss.%'
        and query not like '%pg_stat_statements%'`;
    const byName = new Map<string, { calls: number; time: number }>();
    for (const row of rows) {
      const name = queryName(row.query);
      const seen = byName.get(name) ?? { calls: 0, time: 0 };
      byName.set(name, { calls: seen.calls + Number(row.calls), time: seen.time + Number(row.calls) * row.meanExecTime });
    }
    // What fewer than half the requests ran is the job queue's timers or once-a-minute upkeep, not the requests' own work.
    const named = [...byName]
      .map(([name, { calls, time }]) => ({ name, perRequest: calls / requests, meanMs: time / calls }))
      .filter((entry) => entry.perRequest >= 0.5);
    return { perRequest: named.reduce((sum, entry) => sum + entry.perRequest, 0), byName: named.sort((a, b) => b.perRequest - a.perRequest) };
  } finally {
    await admin.end();
  }
}
