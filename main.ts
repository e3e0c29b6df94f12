import { parseArgs } from 'node:util';
import { buildDashboard } from './dashboard/build.ts';
import { readConfig } from './runtime/config.ts';
import { createLogger } from './runtime/logger.ts';
import { parseRole, startEarshot } from './server/start.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const config = readConfig();
const log = createLogger(config.logLevel);
const role = parseRole(values.role!);

// The roles that serve the dashboard build it first when it is missing or was built from other sources (a fresh clone
// without `npm install`'s build, an edit); a build of the current sources is reused at once.
if (role === 'all' || role === 'gateway') {
  const started = Date.now();
  if (await buildDashboard()) log.info('dashboard built', { ms: Date.now() - started });
}

const starting = startEarshot(config, role, log);

// Listening from the start: a signal that comes while Earshot starts stops
// it as soon as it has started, rather than leaving PostgreSQL behind.
let stopping = false;
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
