import type { KeywordMatchRules } from './keyword-rules.ts';
import type { KeywordMatch } from './matcher.ts';
import type { MatchablePost } from './prepared-post.ts';

/**
 * `match` without the matches of renamed keywords on posts published before
 * the rename: a renamed keyword is tracked from then on, with no look-back
 * (spec 4.2), though polls overlap the last one by an hour and feeds are
 * read from their connection on.
 */
export function matchingSinceRename(rules: readonly KeywordMatchRules[], match: (post: MatchablePost) => KeywordMatch[]): (post: MatchablePost) => KeywordMatch[] {
  const termSince = new Map(rules.flatMap((rule) => (rule.termSince ? [[rule.keywordId, rule.termSince.getTime()] as const] : [])));
  if (termSince.size === 0) return match;
  return (post) => match(post).filter((found) => (termSince.get(found.keywordId) ?? -Infinity) <= post.publishedAt.getTime());
}
