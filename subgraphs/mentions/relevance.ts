import type postgres from 'postgres';
import { relevanceLine } from '../../vocabulary/relevance.ts';

/**
 * The relevance rule (spec 1.2, 2.4), once for TypeScript and once for SQL
 * from the same constant: the classifier's score counts at the relevance
 * line or above, and a user's verdict, when given, wins over it.
 */
export const scoredRelevant = (relevance: number | null): boolean => relevance !== null && relevance >= relevanceLine;

export const isRelevant = (mention: { verdictRelevant: boolean | null; relevance: number | null }): boolean =>
  mention.verdictRelevant ?? scoredRelevant(mention.relevance);

/**
 * `isRelevant` over the mention row aliased `m`. The line is written into
 * the statement, not sent as a parameter: the expression is then the very
 * key of the analytics index (migration 046) and of the planner's
 * statistics on it (migration 024), which a parameter would not match.
 */
export const relevantSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) =>
  sql`coalesce(m.verdict_relevant, m.relevance >= ${sql.unsafe(String(relevanceLine))}, false)`;

/**
 * The relevance score a mention shows (spec 2.4, 4.8): the score a user's
 * verdict set (the compatibility API's relevance write sets 100), else the
 * classifier's. Once for TypeScript and once for SQL over the row `m`.
 */
export const shownRelevance = (mention: { verdictRelevance: number | null; relevance: number | null }): number | null =>
  mention.verdictRelevance ?? mention.relevance;

export const shownRelevanceSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) => sql`coalesce(m.verdict_relevance, m.relevance)`;

/** Octolens's top relevance bucket starts here; the second at the relevance line (spec 4.8). */
export const highRelevance = 70;

/**
 * Octolens's relevance bucket of a mention (spec 4.8): 0 for a score of 70
 * and up, 1 for 40 to 69, 2 below (or not scored). A user's verdict counts
 * as a score of 100 or 0, so a relevance write shows at once.
 */
export function relevanceBucket(mention: { verdictRelevant: boolean | null; relevance: number | null }): 0 | 1 | 2 {
  const score = mention.verdictRelevant === null ? mention.relevance : mention.verdictRelevant ? 100 : 0;
  if (score === null) return 2;
  return score >= highRelevance ? 0 : score >= relevanceLine ? 1 : 2;
}

/** `relevanceBucket` over the mention row aliased `m`. */
export const relevanceBucketSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) => {
  const score = sql`(case when m.verdict_relevant is null then m.relevance when m.verdict_relevant then 100 else 0 end)`;
  return sql`(case when ${score} >= ${highRelevance} then 0 when ${score} >= ${relevanceLine} then 1 else 2 end)`;
};
