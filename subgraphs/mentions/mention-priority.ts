import type { Intent } from '../../vocabulary/classification-values.ts';
import { relevanceLine } from '../../vocabulary/relevance.ts';

export interface PriorityInput {
  relevance: number;
  intents: readonly Intent[];
  /** Author's followers; null when the platform does not say (read as no reach). */
  followers: number | null;
  publishedAt: Date;
  now: Date;
}

/**
 * Priority: the attention score the feed sorts by (spec 2.4 `priority`),
 * 0 to 100, with one decimal.
 *
 * - Relevance decides first. A mention under the relevance line (40) gets at
 *   most a quarter of its relevance, 10 points at most, so it sorts below
 *   every relevant mention whatever its reach or intents; an irrelevant post
 *   by a famous account is still noise. A relevant mention gets 22 to 50
 *   points, rising with its relevance.
 * - Intents say what a person can do about the post, up to 25 points:
 *   buy intent 20 (a sale to win), complaint 15 (a customer to keep, and
 *   complaints spread), question 10 (an answer to give), comparison 10 (a
 *   choice being made between you and a competitor), praise 5 (to thank or
 *   share; nothing is at stake).
 * - Reach, up to 15 points: log10 of followers, full at one million. Ten
 *   followers already count a little; past a million more is no different
 *   for a response team.
 * - Recency, up to 10 points, halving every 24 hours: a reply is worth most
 *   while the thread is live; a post from the future counts as new.
 */
const intentPoints: Record<Intent, number> = { buy_intent: 20, complaint: 15, question: 10, comparison: 10, praise: 5 };
const maxIntentPoints = 25;
const maxReachPoints = 15;
const fullReachFollowers = 1_000_000;
const maxRecencyPoints = 10;
const recencyHalfLifeHours = 24;

export function mentionPriority(input: PriorityInput): number {
  const relevance = Math.max(0, Math.min(100, input.relevance));
  if (relevance < relevanceLine) return Math.round(10 * (relevance / 4)) / 10;

  const relevancePoints = 22 + (28 * (relevance - relevanceLine)) / (100 - relevanceLine);
  const intentTotal = Math.min(maxIntentPoints, [...new Set(input.intents)].reduce((sum, intent) => sum + intentPoints[intent], 0));
  const followers = Math.max(0, input.followers ?? 0);
  const reach = maxReachPoints * Math.min(1, Math.log10(1 + followers) / Math.log10(fullReachFollowers));
  const ageHours = Math.max(0, (input.now.getTime() - input.publishedAt.getTime()) / 3_600_000);
  const recency = maxRecencyPoints * 0.5 ** (ageHours / recencyHalfLifeHours);
  return Math.round(10 * (relevancePoints + intentTotal + reach + recency)) / 10;
}
