import type { Queryable } from '../../runtime/database.ts';
import { lockKeysUntilCommit } from '../../runtime/transaction-locks.ts';

export interface RepositorySeen {
  fullName: string;
  firstSeenAt: Date;
  stars: number;
  weekAgoStars: number | null;
  weekAgoAt: Date | null;
  lastSnapshotAt: Date;
  tractionReported: boolean;
  milestoneReported: number;
}

/**
 * Holds the repositories, by name, until the transaction ends: polls that
 * see one at once then read its last sighting one after another, each after
 * the last has saved its own. Names in order, so two polls cannot deadlock.
 */
export function lockRepositoriesSeen(tx: Queryable, fullNames: readonly string[]): Promise<void> {
  return lockKeysUntilCommit(tx, 'repositories_seen', fullNames.map((name) => name.toLowerCase()));
}

export async function findRepositorySeen(sql: Queryable, fullName: string): Promise<RepositorySeen | undefined> {
  const [row] = await sql<RepositorySeen[]>`
    /* findRepositorySeen */
    select * from repositories_seen where full_name = ${fullName.toLowerCase()}`;
  return row;
}

export async function saveRepositorySeen(sql: Queryable, seen: RepositorySeen): Promise<void> {
  await sql`
    /* saveRepositorySeen */
    insert into repositories_seen (full_name, first_seen_at, stars, week_ago_stars, week_ago_at, last_snapshot_at, traction_reported, milestone_reported)
    values (${seen.fullName.toLowerCase()}, ${seen.firstSeenAt}, ${seen.stars}, ${seen.weekAgoStars}, ${seen.weekAgoAt},
            ${seen.lastSnapshotAt}, ${seen.tractionReported}, ${seen.milestoneReported})
    on conflict (full_name) do update set
      stars = excluded.stars, week_ago_stars = excluded.week_ago_stars, week_ago_at = excluded.week_ago_at,
      last_snapshot_at = excluded.last_snapshot_at, traction_reported = excluded.traction_reported,
      milestone_reported = excluded.milestone_reported`;
}
