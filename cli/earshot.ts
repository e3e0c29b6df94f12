import { parseArgs } from 'node:util';
import { GraphQLError } from 'graphql';
import { readConfig } from '../runtime/config.ts';
import { connect, startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { migrate } from '../runtime/migrate.ts';
import { billingDayOf, creditWalletByOperator, runDailyTicksThrough } from '../subgraphs/billing/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';

const usage = `Usage: npm run --silent earshot -- <command>

Commands:
  workspace create --name NAME   Creates a workspace and prints {"workspace":{…},"apiKey":"mk_live_…"}
  wallet credit --workspace org_… --cents N [--reference REF]
                                 Credits the workspace's wallet (self-hosted installs without a payment
                                 provider) and prints {"workspace":…,"credited":true,"creditedCents":N,"balanceCents":…};
                                 a second run with the same REF credits nothing
  billing tick [--day YYYY-MM-DD]
                                 Runs the daily billing tick for the day (default today, UTC), after every
                                 day before it not yet ticked, oldest first, and prints
                                 {"ticked":[{"day":…,"workspaces":…,"keywordDaysCharged":…,"keywordsPaused":…,"walletsPaused":…}]};
                                 a day already ticked charges nothing again
`;

/**
 * Operator commands. They find the database the way the server does:
 * DATABASE_URL, else the embedded PostgreSQL of EARSHOT_DATA_DIR (the running
 * one if the server is up, else started for the command and stopped after).
 */
async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === 'workspace' && command === 'create') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
    const name = values.name?.trim();
    if (!name) {
      process.stderr.write('workspace create needs --name NAME\n');
      return 2;
    }
    return withDatabase(async (sql) => {
      process.stdout.write(JSON.stringify(await provisionWorkspace(sql, name)) + '\n');
      return 0;
    });
  }
  if (group === 'wallet' && command === 'credit') {
    const { values } = parseArgs({ args: rest, options: { workspace: { type: 'string' }, cents: { type: 'string' }, reference: { type: 'string' } } });
    const cents = Number(values.cents);
    if (!values.workspace?.startsWith('org_') || !/^\d+$/.test(values.cents ?? '')) {
      process.stderr.write('wallet credit needs --workspace org_… --cents N (whole cents)\n');
      return 2;
    }
    const workspaceId = values.workspace;
    return withDatabase(async (sql) => {
      try {
        const outcome = await creditWalletByOperator(sql, { workspaceId, cents, reference: values.reference, at: new Date() });
        const printed = {
          workspace: workspaceId,
          credited: outcome.credited,
          creditedCents: outcome.credited ? cents : 0,
          balanceCents: outcome.balanceCents,
          keywordsResumed: outcome.keywordsResumed,
        };
        process.stdout.write(JSON.stringify(printed) + '\n');
        return 0;
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        process.stderr.write(`wallet credit: ${error.message}\n`);
        return 1;
      }
    });
  }
  if (group === 'billing' && command === 'tick') {
    const { values } = parseArgs({ args: rest, options: { day: { type: 'string' } } });
    const now = new Date();
    const day = values.day ?? billingDayOf(now);
    if (!isCalendarDay(day)) {
      process.stderr.write('billing tick: --day must be a date YYYY-MM-DD\n');
      return 2;
    }
    // A day is charged once it has begun; charging one ahead would bill keywords that may not run that day.
    if (day > billingDayOf(now)) {
      process.stderr.write(`billing tick: ${day} has not begun yet (UTC)\n`);
      return 2;
    }
    return withDatabase(async (sql) => {
      process.stdout.write(JSON.stringify({ ticked: await runDailyTicksThrough(sql, day, now) }) + '\n');
      return 0;
    });
  }
  process.stderr.write(usage);
  return 2;
}

const isCalendarDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value);

async function withDatabase(work: (sql: ReturnType<typeof connect>) => Promise<number>): Promise<number> {
  const config = readConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = config.databaseUrl ? { url: config.databaseUrl, stop: async () => {} } : await startEmbeddedDatabase(config.dataDir, log);
  const sql = connect(database.url, { max: 2 });
  try {
    await migrate(sql);
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
    await database.stop();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // An operator reads one line, not a stack: which database could not be reached, or what failed.
  const code = (error as { code?: string }).code;
  const reason = code === 'ECONNREFUSED' || code === 'ENOTFOUND' ? 'cannot reach the database (check DATABASE_URL or EARSHOT_DATA_DIR)' : String(error instanceof Error ? error.message : error);
  process.stderr.write(`earshot: ${reason}\n`);
  process.exitCode = 1;
}
