import type { EarshotConfig } from './config.ts';

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, 'silent'>;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** One JSON line per event on stderr, so stdout stays free for CLI output. */
export function createLogger(level: EarshotConfig['logLevel'], base: Record<string, unknown> = {}): Logger {
  const threshold = levels[level];
  const write = (at: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[at] < threshold) return;
    process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...base, ...fields }) + '\n');
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
