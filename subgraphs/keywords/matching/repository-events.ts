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
