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

export interface LoggerOptions {
  /** Fields every line carries. */
  fields?: Record<string, unknown>;
  /** Where each JSON line goes; default stderr. Tests collect the lines instead. */
  write?: (line: string) => void;
}

const writeToStderr = (line: string) => void process.stderr.write(line);

/** One JSON line per event on stderr, so stdout stays free for CLI output. */
export function createLogger(level: EarshotConfig['logLevel'], options: LoggerOptions = {}): Logger {
  const threshold = levels[level];
  const base = options.fields ?? {};
  const output = options.write ?? writeToStderr;
  const write = (at: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[at] < threshold) return;
    output(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...base, ...fields }) + '\n');
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => createLogger(level, { fields: { ...base, ...fields }, write: output }),
  };
}
