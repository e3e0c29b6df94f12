import { parseArgs } from 'node:util';
import { readConfig } from './runtime/config.ts';
import { createLogger } from './runtime/logger.ts';
import { parseRole, startEarshot } from './server/start.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const config = readConfig();
const log = createLogger(config.logLevel);
const role = parseRole(values.role!);

const earshot = await startEarshot(config, role, log);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping`);
    await earshot.stop();
    process.exit(0);
  });
}
