import './runtime/production-mode.ts';
import { parseArgs } from 'node:util';
import { buildDashboard } from './dashboard/build.ts';
import { type EarshotConfig, readConfig } from './runtime/config.ts';
import { isDatabaseUnavailable } from './runtime/database-availability.ts';
import { createLogger } from './runtime/logger.ts';
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

// The roles that serve the dashboard build it first when it is missing or was built from other sources (a fresh clone
// without `npm install`'s build, an edit); a build of the current sources is reused at once.
if (role === 'all' || role === 'gateway') {
  const started = Date.now();
  if (await buildDashboard()) log.info('dashboard built', { ms: Date.now() - started });
}

let stopping = false;

/**
 * A start that finds the database not answering (a server still starting,
 * or too busy to open a connection in time) is tried again rather than
 * ending the process: the contract's "reconnected to when it returns"
 * holds from the first moment. Any other failure ends the start.
 */
async function startWhenDatabaseAnswers(): Promise<RunningEarshot | undefined> {
  for (;;) {
    try {
      return await startEarshot(config, role, log);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (stopping) return undefined;
      log.warn('the database did not answer while starting; starting again in 2 s', { error: String(error) });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (stopping) return undefined;
    }
  }
}

const starting = startWhenDatabaseAnswers();

// Listening from the start: a signal that comes while Earshot starts stops
// it as soon as it has started, rather than leaving PostgreSQL behind.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping`);
    // The contract gives a stop 10 s; stop() keeps well inside them, and this is the backstop.
    setTimeout(() => {
      log.error('stopping took 10 s; exiting with what is left still running');
      process.exit(1);
    }, 9_900).unref();
    const earshot = await starting.catch(() => undefined);
    await earshot?.stop();
    process.exit(0);
  });
}

await starting;
