import { parseArgs } from 'node:util';
import { GraphQLError } from 'graphql';
import { type EarshotConfig, readConfig } from '../runtime/config.ts';
import { connect, holdsEmbeddedDatabase, startEmbeddedDatabase } from '../runtime/database.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { migrate } from '../runtime/migrate.ts';
import { billingDayOf, creditWalletByOperator, runDailyTicksThrough } from '../subgraphs/billing/index.ts';
import { isEmailAddress, passwordRule, provisionWorkspace, setUserPassword } from '../subgraphs/team/index.ts';

const usage = `Usage: npm run --silent earshot -- <command> [--init]

Commands:
  workspace create --name NAME [--owner-email EMAIL]
                                 Creates a workspace and prints {"workspace":{…},"apiKey":"mk_live_…"};
                                 with --owner-email, the user with that address (created when there is
                                 none) owns it and the output adds "owner":{"id":"usr_…","email":…,"name":…}
  user set-password --email EMAIL
                                 Sets the password of the user with that address to the first line of
                                 standard input (at least 10 characters) and prints {"user":"usr_…","passwordSet":true}
  wallet credit --workspace org_… --cents N [--reference REF]
                                 Credits the workspace's wallet (self-hosted installs without a payment
                                 provider) and prints {"workspace":…,"credited":true,"creditedCents":N,"balanceCents":…};
                                 a second run with the same REF credits nothing
  billing tick [--day YYYY-MM-DD]
                                 Runs the daily billing tick for the day (default today, UTC), after every
                                 day before it not yet ticked, oldest first, and prints
                                 {"ticked":[{"day":…,"workspaces":…,"keywordDaysCharged":…,"keywordsPaused":…,"walletsPaused":…}]};
                                 a day already ticked charges nothing again

Every command uses the server's database: DATABASE_URL, else the embedded PostgreSQL
of EARSHOT_DATA_DIR (default ./.data). --init creates that embedded database when the
directory holds none yet; without it the command refuses, since a key made in a new
database would not work against a server running on another one.
`;

const databaseOptions = { init: { type: 'boolean' } } as const;

/**
 * Operator commands. They find the database the way the server does:
 * DATABASE_URL, else the embedded PostgreSQL of EARSHOT_DATA_DIR (the running
 * one if the server is up, else started for the command and stopped after).
 * Stdout carries only the command's JSON; which database was used goes to stderr.
 */
async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === 'workspace' && command === 'create') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, ...databaseOptions } });
    const name = values.name?.trim();
    if (!name) {
      process.stderr.write('workspace create needs --name NAME\n');
      return 2;
    }
    const ownerEmail = values['owner-email']?.trim();
    if (ownerEmail !== undefined && !isEmailAddress(ownerEmail)) {
      process.stderr.write('workspace create: --owner-email must be an e-mail address\n');
      return 2;
    }
    return withDatabase({ init: values.init }, async (sql) => {
      process.stdout.write(JSON.stringify(await provisionWorkspace(sql, name, { ownerEmail })) + '\n');
      return 0;
    });
  }
  if (group === 'user' && command === 'set-password') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, ...databaseOptions } });
    const email = values.email?.trim();
    if (!email || !isEmailAddress(email)) {
      process.stderr.write('user set-password needs --email EMAIL, and the password on standard input\n');
      return 2;
    }
    const password = (await readStandardInput()).split(/\r?\n/)[0];
    const problem = passwordRule.safeParse(password).error?.issues[0]?.message;
    if (problem) {
      process.stderr.write(`user set-password: the password ${problem}\n`);
      return 2;
    }
    return withDatabase({ init: values.init }, async (sql) => {
      const userId = await setUserPassword(sql, email, password);
      if (!userId) {
        process.stderr.write(`user set-password: no user has the address ${email}\n`);
        return 1;
      }
      process.stdout.write(JSON.stringify({ user: userId, passwordSet: true }) + '\n');
      return 0;
    });
  }
  if (group === 'wallet' && command === 'credit') {
    const { values } = parseArgs({
      args: rest,
      options: { workspace: { type: 'string' }, cents: { type: 'string' }, reference: { type: 'string' }, ...databaseOptions },
    });
    const cents = Number(values.cents);
    if (!values.workspace?.startsWith('org_') || !/^\d+$/.test(values.cents ?? '')) {
      process.stderr.write('wallet credit needs --workspace org_… --cents N (whole cents)\n');
      return 2;
    }
    const workspaceId = values.workspace;
    return withDatabase({ init: values.init }, async (sql) => {
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
    const { values } = parseArgs({ args: rest, options: { day: { type: 'string' }, ...databaseOptions } });
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
    return withDatabase({ init: values.init }, async (sql) => {
      process.stdout.write(JSON.stringify({ ticked: await runDailyTicksThrough(sql, day, now) }) + '\n');
      return 0;
    });
  }
  process.stderr.write(usage);
  return 2;
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function say(line: string): void {
  process.stderr.write(`earshot: ${line}\n`);
}

/** The address without its password (in the userinfo or as a parameter), to name on stderr. */
function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    url.searchParams.delete('password');
    return url.toString();
  } catch {
    return '(an address that does not parse as a URL)';
  }
}

/** The database the command works in, said on stderr; none (after saying why) when there is nothing to use without --init. */
async function openDatabase(config: EarshotConfig, log: Logger, options: { init?: boolean }) {
  if (config.databaseUrl) {
    say(`using DATABASE_URL ${withoutPassword(config.databaseUrl)}`);
    return { url: config.databaseUrl, stop: async () => {} };
  }
  const noDatabaseYet = !holdsEmbeddedDatabase(config.dataDir);
  if (noDatabaseYet && !options.init) {
    say(`${config.dataDir} (EARSHOT_DATA_DIR) holds no database yet; nothing was done.`);
    say('start the server first (npm start) and run this again while it runs, or pass --init to create a new database there.');
    say('if your server runs with another EARSHOT_DATA_DIR, or with DATABASE_URL, set the same here.');
    return undefined;
  }
  const database = await startEmbeddedDatabase(config.dataDir, log);
  if (noDatabaseYet) say(`created a new embedded database in ${config.dataDir} (--init)`);
  say(
    `using the embedded PostgreSQL of ${config.dataDir} ` +
      (database.alreadyRunning ? `(server running, port ${database.port})` : '(no server running; started it for this command)'),
  );
  return database;
}

const isCalendarDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value);

async function withDatabase(options: { init?: boolean }, work: (sql: ReturnType<typeof connect>) => Promise<number>): Promise<number> {
  const config = readConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config, log, options);
  if (!database) return 1;
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
