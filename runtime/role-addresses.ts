import os from 'node:os';
import type { Queryable } from './database.ts';
import type { Logger } from './logger.ts';

/**
 * The address the other processes of a deployment reach a process at that
 * listens on `host` and `port`: the address it listens on, or, listening on
 * every address, its machine's name.
 */
export function advertisedAddress(host: string, port: number, path = ''): string {
  const name = host === '0.0.0.0' || host === '::' ? os.hostname() : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}${path}`;
}

/**
 * A recorded address as this process reaches it: one naming this machine
 * becomes loopback, which a process listening on every address answers on
 * whether or not the machine's name resolves.
 */
export function reachableAddress(recorded: string): string {
  const url = new URL(recorded);
  if (url.hostname === os.hostname()) url.hostname = '127.0.0.1';
  return url.href.replace(/\/$/, '');
}

/** Records that `role` answers at `url`, replacing the address of an earlier process of the role. */
export async function recordRoleAddress(sql: Queryable, role: string, url: string): Promise<void> {
  await sql`
    /* recordRoleAddress */
    insert into role_addresses (role, url) values (${role}, ${url})
    on conflict (role) do update set url = excluded.url, recorded_at = now()`;
}

/** How often a process waiting for the others looks again. */
const lookEveryMs = 1_000;

/**
 * The recorded addresses of `roles`, as this process reaches them, waiting
 * for the roles that have recorded none yet (the processes of a deployment
 * may start in any order) until every one has, or `signal` aborts.
 */
export async function roleAddresses(sql: Queryable, roles: readonly string[], log: Logger, signal?: AbortSignal): Promise<Record<string, string>> {
  let waitingFor = '';
  for (;;) {
    const rows = await sql<{ role: string; url: string }[]>`
      /* roleAddresses */
      select role, url from role_addresses where role = any(${roles as string[]})`;
    const missing = roles.filter((role) => !rows.some((row) => row.role === role));
    if (missing.length === 0) return Object.fromEntries(rows.map((row) => [row.role, reachableAddress(row.url)]));
    if (missing.join() !== waitingFor) {
      waitingFor = missing.join();
      log.info(`waiting for ${missing.join(', ')} to start and record where they answer`, { waitingFor: missing });
    }
    signal?.throwIfAborted();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, lookEveryMs);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    signal?.throwIfAborted();
  }
}
