import type { Queryable } from '../../runtime/database.ts';
import { findRepositorySeen, saveRepositorySeen } from '../mentions/index.ts';
import type { KeywordMatch, Matcher } from './matching/matcher.ts';
import type { MatchablePost } from './matching/prepared-post.ts';
import { type RepositoryEvent, repositoryEvents } from './matching/repository-events.ts';

/**
 * The matcher's view of a batch of search results: a code-hosting
 * repository counts only through its events (spec 2.1.3), so each event
 * seen since the repository's last sighting is offered to the rules in
 * turn, and the new sighting is recorded. Other posts match as they are.
 */
export async function matchWithRepositoryEvents(
  sql: Queryable,
  matcher: Matcher,
  posts: readonly MatchablePost[],
  now: Date,
): Promise<(post: MatchablePost) => KeywordMatch[]> {
  const eventsByPost = new Map<MatchablePost, RepositoryEvent[]>();
  for (const post of posts) {
    if (!post.repository) continue;
    const seen = await findRepositorySeen(sql, post.repository.fullName);
    const { events, next } = repositoryEvents(post.repository, seen, now);
    await saveRepositorySeen(sql, next);
    eventsByPost.set(post, events);
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
