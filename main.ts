import './runtime/production-mode.ts';
import { parseArgs } from 'node:util';
import { buildDashboard } from './dashboard/build.ts';
import { type EarshotConfig, readConfig } from './runtime/config.ts';
import { isDatabaseUnavailable } from './runtime/database-availability.ts';
import { createLogger } from './runtime/logger.ts';
import { takeOverStopSignals } from './server/early-stop.ts';
import { parseRole, type Role, type RunningEarshot, startEarshot } from './server/start.ts';

/**
 * The environment and the arguments, read before anything starts. A value
 * that cannot be used ends the process with exit code 1 and one log line
 * naming it, rather than a stack trace to search for the variable in.
 */
function settings(): { config: EarshotConfig; role: Role } {
  try {
    const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
    return { config: readConfig(), role: parseRole(values.role!) };
  } catch (error) {
    createLogger('info').error(`Earshot cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const { config, role } = settings();
const log = createLogger(config.logLevel);

let stopping = false;
/** Ends a start that waits for the other processes of a deployment (runtime/role-addresses.ts) when a stop is asked for. */
const startAborted = new AbortController();
/** Earshot starting, once the dashboard is built; a stop asked for before that has nothing to wait for. */
let starting: Promise<RunningEarshot | undefined> | undefined;

/**
 * A start that finds the database not answering (a server still starting,
 * or too busy to open a connection in time) is tried again rather than
 * ending the process: the contract's "reconnected to when it returns"
 * holds from the first moment. Any other failure ends the start.
 */
async function startWhenDatabaseAnswers(): Promise<RunningEarshot | undefined> {
  for (;;) {
    try {
      return await startEarshot(config, role, log, { signal: startAborted.signal });
    } catch (error) {
      if (stopping) return undefined;
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn('the database did not answer while starting; starting again in 2 s', { error: String(error) });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (stopping) return undefined;
    }
  }
}

/**
 * Stops as SIGTERM does: the public server drains, the jobs stop, the
 * embedded PostgreSQL this process started stops, then the process exits
 * with `code`. A stop asked for while Earshot starts waits for the start,
 * rather than leaving PostgreSQL behind.
 */
async function stopAndExit(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  startAborted.abort();
  // The contract gives a stop 10 s; stop() keeps well inside them, and this is the backstop.
  setTimeout(() => {
    log.error('stopping took 10 s; exiting with what is left still running');
    process.exit(1);
  }, 9_900).unref();
  const earshot = await starting?.catch(() => undefined);
  await earshot?.stop();
  process.exit(code);
}

takeOverStopSignals((signal) => {
  if (!stopping) log.info(`${signal} received, stopping`);
  void stopAndExit(0);
});

// The roles that serve the dashboard build it first when it is missing or was built from other sources (a fresh clone
// without `npm install`'s build, an edit); a build of the current sources is reused at once. A stop during the build
// exits at once: the build's fingerprint is written last, so a build cut short is made again next time.
if (role === 'all' || role === 'gateway') {
  const started = Date.now();
  if (await buildDashboard()) log.info('dashboard built', { ms: Date.now() - started });
}
starting = startWhenDatabaseAnswers();

// `npm start | head` closes the output once head has its lines; the next line written fails (EPIPE), which, unheard,
// ended the process and left its PostgreSQL running. A closed output stops Earshot as SIGTERM does.
for (const output of [process.stdout, process.stderr]) {
  output.on('error', () => void stopAndExit(0));
}

const stackOf = (error: unknown) => (error instanceof Error ? (error.stack ?? String(error)) : String(error));

/**
 * The last resort, for a promise that rejected with no handler. One that
 * says the database is away is a statement cut short by an outage, which
 * the contract says Earshot lives through (requests answer 503 until the
 * database is back): PostgreSQL rolled its work back, nothing in memory
 * depends on it, and ending the process would turn a few seconds of 503s
 * into refused connections. It is logged with its stack, to be handled
 * where it starts. Any other is a bug of unknown reach, and so is an
 * uncaught exception: logged, Earshot stops as on SIGTERM (its PostgreSQL
 * included) and exits 1, for its supervisor to start it afresh.
 */
process.on('unhandledRejection', (reason) => {
  if (isDatabaseUnavailable(reason)) {
    log.error('a statement lost the database and nothing handled its failure; serving on', { error: stackOf(reason) });
    return;
  }
  log.error('unhandled rejection; stopping', { error: stackOf(reason) });
  void stopAndExit(1);
});
process.on('uncaughtException', (error) => {
  log.error('uncaught exception; stopping', { error: stackOf(error) });
  void stopAndExit(1);
});

/** A port another process holds is the operator's to fix, as a bad variable is: said in one line, without a stack. */
const portTaken = (error: unknown): error is NodeJS.ErrnoException & { port: number } =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

const running = await starting.catch((error: unknown) => {
  if (portTaken(error)) log.error(`Earshot cannot start: port ${error.port} is already in use by another process`);
  else log.error('Earshot did not start', { error: stackOf(error) });
  process.exit(1);
});
// The log's ready line is on stderr with every other; a supervisor that watches only stdout for it finds it there too.
if (running) process.stdout.write(`Earshot ${role} ready${running.url ? ` on ${running.url}` : ''}\n`);
