import type { RepositoryObservation } from '../../../vocabulary/normalized-post.ts';
import type { RepositorySeen } from '../../mentions/index.ts';

export type RepositoryEventKind = 'new' | 'traction' | 'stars' | 'growth';

/** What the repository watcher saw happen to a code-hosting repository (spec 2.1.3). */
export interface RepositoryEvent {
  kind: RepositoryEventKind;
  stars: number;
  /** Stars gained in the last 7 days; null when unknown. */
  weeklyStars: number | null;
}

export interface RepositoryRules {
  events: RepositoryEventKind[];
  minStars: number | null;
  minWeeklyStars: number | null;
}

const GROWTH_MIN_STARS = 100;
const GROWTH_MIN_WEEKLY_SHARE = 0.2;

/** Spec 2.1.3, "Repository events": an event that fails is dropped before storage and never billed. */
export function repositoryEventPasses(rules: RepositoryRules, event: RepositoryEvent): boolean {
  if (!rules.events.includes(event.kind)) return false;
  if (rules.minStars !== null && event.stars < rules.minStars) return false;
  if (rules.minWeeklyStars !== null) return event.weeklyStars !== null && event.weeklyStars >= rules.minWeeklyStars;
  if (event.kind !== 'growth') return true;
  return event.stars >= GROWTH_MIN_STARS && event.weeklyStars !== null && event.weeklyStars >= GROWTH_MIN_WEEKLY_SHARE * event.stars;
}

const day = 86_400_000;
/** Star counts a repository of 100+ stars is reported for passing (spec 2.1.3 `stars`). */
export const starMilestones = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000];

/**
 * What happened to a repository since it was last seen (spec 2.1.3): `new`
 * on first sight; `traction` once, when one first seen in the last 30 days
 * reaches 10 stars; `stars` when one of 100+ passes a milestone; `growth`
 * whenever stars gained in a week are known (the rule decides whether it is
 * fast enough). Stars gained in a week come from the platform when it says,
 * else from our own snapshot of at least a week ago.
 */
export function repositoryEvents(observation: RepositoryObservation, seen: RepositorySeen | undefined, now: Date): { events: RepositoryEvent[]; next: RepositorySeen } {
  const { stars } = observation;
  const snapshotOld = seen?.weekAgoAt && now.getTime() - seen.weekAgoAt.getTime() >= 7 * day;
  const weeklyStars = observation.starsLastWeek ?? (seen && snapshotOld && seen.weekAgoStars !== null ? stars - seen.weekAgoStars : null);
  const firstSeenAt = seen?.firstSeenAt ?? now;
  const events: RepositoryEvent[] = [];
  const add = (kind: RepositoryEvent['kind']) => events.push({ kind, stars, weeklyStars });
  if (!seen) add('new');
  const tractionDue = !seen?.tractionReported && stars >= 10 && now.getTime() - firstSeenAt.getTime() <= 30 * day;
  if (tractionDue) add('traction');
  const milestone = starMilestones.filter((m) => m <= stars).pop() ?? 0;
  const milestonePassed = milestone >= 100 && milestone > (seen?.milestoneReported ?? 0) && seen !== undefined;
  if (milestonePassed) add('stars');
  if (weeklyStars !== null) add('growth');
  // Keep one snapshot about a week old: roll it forward once it is two weeks old.
  const rollSnapshot = !seen?.weekAgoAt || now.getTime() - seen.weekAgoAt.getTime() >= 14 * day;
  return {
    events,
    next: {
      fullName: observation.fullName,
      firstSeenAt,
      stars,
      weekAgoStars: rollSnapshot ? stars : seen!.weekAgoStars,
      weekAgoAt: rollSnapshot ? now : seen!.weekAgoAt,
      lastSnapshotAt: now,
      tractionReported: (seen?.tractionReported ?? false) || tractionDue,
      // A first sighting records the milestone already passed, so only later ones are events.
      milestoneReported: Math.max(seen?.milestoneReported ?? 0, milestone),
    },
  };
}
