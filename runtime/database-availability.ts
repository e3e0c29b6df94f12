import net from 'node:net';
import postgres from 'postgres';
import { whenAnswerIsLate } from './late-answer-timer.ts';
import type { Logger } from './logger.ts';
import { UpstreamError } from './upstream-http.ts';

/** What a client is told to wait before it retries while the database is away: about the time embedded PostgreSQL takes to restart. */
export const databaseRetryAfterSeconds = 5;

/** What `service_unavailable` says (contract "database lost"). */
export const databaseUnavailableMessage = 'The database is not available; retry shortly';

/**
 * Error codes that mean "the database is not there" rather than "this query
 * is wrong": postgres.js's own connection codes, the socket's, SQLSTATE class
 * 08 (connection exception), 57P01–57P03 (the server shutting down, crashed
 * or still starting), 57014 (cancelled, as the request pools' statement
 * timeout does), 53300 (no connection slot left), and the watch's own.
 */
const unavailableCodes = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'DATABASE_NOT_ANSWERING',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
]);

// pg (pg-boss's driver) gives its connection failures no code, only these messages.
const unavailableMessages = /^(Connection terminated unexpectedly|Connection terminated due to connection timeout|timeout exceeded when trying to connect)$/;

/**
 * Whether an error says the database could not be reached or did not answer
 * in time: the error itself, the one a GraphQL error wraps, or one of an
 * AggregateError's (a connection tried on several addresses). A `cause` is
 * not followed: a failed `fetch` to another service carries its socket
 * error there, and that is no database's fault.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  // Another service's failure carries that service's codes (a mail server's ECONNREFUSED or ETIMEDOUT): 502, not the database.
  if (error instanceof UpstreamError) return false;
  const { code, message, originalError, errors } = error as { code?: unknown; message?: unknown; originalError?: unknown; errors?: unknown };
  if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && unavailableMessages.test(message)) return true;
  return [originalError, ...(Array.isArray(errors) ? errors : [])].some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

export interface DatabaseStatus {
  up: boolean;
  /** Why the database counts as down: the probe's error. */
  reason?: string;
  /** When the status last changed. */
  since: Date;
}

/** The parts of postgres.js's options a socket factory receives. */
interface SocketTarget {
  host: string[];
  port: number[];
  path?: string | false;
}

export interface DatabaseWatch {
  /**
   * postgres.js's `socket` option for every pool the watch guards: the
   * sockets it opens are the ones cut when the database stops answering.
   */
  openSocket(target: SocketTarget): net.Socket;
  /** The status as the last probe found it. */
  status(): DatabaseStatus;
  /** Probes now (or joins the probe under way) and returns what it found. */
  check(): Promise<DatabaseStatus>;
  stop(): Promise<void>;
}

export interface DatabaseWatchOptions {
  /** Time between probes. */
  intervalMs?: number;
  /** A probe not answered within this time means the database is not answering. */
  answerWithinMs?: number;
}

/**
 * Probes the database every second with `select 1` on a connection of its
 * own. A probe that fails marks the database down; one that gets no answer
 * at all (PostgreSQL frozen, or the network gone quiet) also cuts every
 * connection the watch guards. Those connections would otherwise hold their
 * queries forever and keep taking new ones in their pipelines, to run them
 * all at once, long after their requests were answered, when the server
 * wakes up; a connection cut is rejected at once and opened afresh.
 */
export function watchDatabase(url: string, log: Logger, options: DatabaseWatchOptions = {}): DatabaseWatch {
  const intervalMs = options.intervalMs ?? 1000;
  const answerWithinMs = options.answerWithinMs ?? 3000;
  const guarded = new Set<net.Socket>();
  const probeSockets = new Set<net.Socket>();
  let current: DatabaseStatus = { up: true, since: new Date() };
  let probing: Promise<DatabaseStatus> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let nextHost = 0;

  const opener = (into: Set<net.Socket>) => (target: SocketTarget) => {
    const index = nextHost++ % target.port.length;
    const socket = target.path ? net.connect(target.path) : net.connect(target.port[index], target.host[index]);
    // postgres.js names the address in its connection errors from these.
    Object.assign(socket, { host: target.host[index], port: target.port[index] });
    into.add(socket);
    socket.once('close', () => into.delete(socket));
    return socket;
  };

  // postgres.js takes a socket factory, `socket`, that its type declarations leave out.
  const probeSocket = { socket: opener(probeSockets) };
  const probeSql = postgres(url, {
    max: 1,
    connect_timeout: answerWithinMs / 1000,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    backoff: () => 0,
    onnotice: () => {},
    connection: { application_name: 'earshot-watch' },
    ...probeSocket,
  });

  const cutConnections = (reason: string) => {
    const error = Object.assign(new Error(`The database did not answer: ${reason}`), { code: 'DATABASE_NOT_ANSWERING' });
    for (const socket of [...guarded, ...probeSockets]) socket.destroy(error);
  };

  const settle = (next: Omit<DatabaseStatus, 'since'>) => {
    if (next.up !== current.up) {
      const lasted = Math.round((Date.now() - current.since.getTime()) / 1000);
      if (next.up) log.info('the database answers again', { downSeconds: lasted });
      else log.error('the database is down: requests answer 503 until it is back', { reason: next.reason });
      current = { ...next, since: new Date() };
    } else if (!next.up) {
      current = { ...current, reason: next.reason };
    }
    return current;
  };

  const probe = (): Promise<DatabaseStatus> =>
    (probing ??= new Promise<Omit<DatabaseStatus, 'since'>>((resolve) => {
      // The first of the answer and the lateness settles the probe; the other then changes nothing.
      const cancel = whenAnswerIsLate(answerWithinMs, () => {
        const reason = `no answer within ${answerWithinMs / 1000} s`;
        cutConnections(reason);
        resolve({ up: false, reason });
      });
      probeSql`/* probeDatabase */ select 1`
        .then(
          () => ({ up: true }),
          (error: Error) => ({ up: false, reason: error.message }),
        )
        .then((status) => {
          cancel();
          resolve(status);
        });
    })
      .then(settle)
      .finally(() => {
        probing = undefined;
      }));

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void probe().then(schedule), intervalMs);
    timer.unref();
  };
  schedule();

  return {
    openSocket: opener(guarded),
    status: () => current,
    check: probe,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await probeSql.end({ timeout: 0 });
    },
  };
}
