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

/** `isRelevant` over the mention row aliased `m`. */
export const relevantSql = (sql: postgres.Sql<{}> | postgres.TransactionSql<{}>) => sql`coalesce(m.verdict_relevant, m.relevance >= ${relevanceLine}, false)`;
