import type { Queryable } from './database.ts';

/**
 * Holds an advisory lock on each key of `namespace` until the transaction
 * ends, for work that reads then writes what no row lock covers (a count,
 * a step reported, a sighting). Keys are taken once each and in order, so
 * two transactions locking overlapping keys cannot deadlock.
 */
export async function lockKeysUntilCommit(tx: Queryable, namespace: string, keys: readonly string[]): Promise<void> {
  const ordered = [...new Set(keys)].sort();
  if (ordered.length === 0) return;
  await tx`
    /* lockKeysUntilCommit */
    select pg_advisory_xact_lock(hashtextextended(${namespace} || ':' || key, 0))
    from unnest(${tx.array(ordered)}::text[]) as t(key)`;
}
