import type { Sql } from '../../runtime/database.ts';
import { findRepositorySeen, lockRepositoriesSeen, saveRepositorySeen } from '../mentions/index.ts';
import type { KeywordMatch, Matcher } from './matching/matcher.ts';
import type { MatchablePost } from './matching/prepared-post.ts';
import { type RepositoryEvent, repositoryEvents } from './matching/repository-events.ts';

/**
 * The matcher's view of a batch of search results: a code-hosting
 * repository counts only through its events (spec 2.1.3), so each event
 * seen since the repository's last sighting is offered to the rules in
 * turn, and the new sighting is recorded. Other posts match as they are.
 *
 * Polls run at once, and two of them (two terms, or a look-back beside a
 * regular poll) may see the same repository: its sightings are read and
 * saved under a lock per repository, so an event is reported by the first
 * poll to see it, as if the polls had run one after another, and a
 * sighting is never saved over one the reading poll did not see.
 */
export async function matchWithRepositoryEvents(
  sql: Sql,
  matcher: Matcher,
  posts: readonly MatchablePost[],
  now: Date,
): Promise<(post: MatchablePost) => KeywordMatch[]> {
  const eventsByPost = new Map<MatchablePost, RepositoryEvent[]>();
  const observed = posts.filter((post) => post.repository);
  if (observed.length > 0) {
    await sql.begin(async (tx) => {
      await lockRepositoriesSeen(tx, observed.map((post) => post.repository!.fullName));
      for (const post of observed) {
        const seen = await findRepositorySeen(tx, post.repository!.fullName);
        const { events, next } = repositoryEvents(post.repository!, seen, now);
        await saveRepositorySeen(tx, next);
        eventsByPost.set(post, events);
      }
    });
  }
  return (post) => {
    const events = eventsByPost.get(post);
    if (!events) return matcher.match(post);
    const matches = new Map<string, KeywordMatch>();
    for (const repositoryEvent of events) {
      for (const found of matcher.match({ ...post, repositoryEvent })) matches.set(found.keywordId, found);
    }
    return [...matches.values()];
  };
}
