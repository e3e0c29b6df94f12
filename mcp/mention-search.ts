import { z } from 'zod';
import { platforms } from '../vocabulary/normalized-post.ts';

/**
 * The mention-search tool's arguments and how they become the mention list's
 * request (`GET /v1/mentions`, whose route turns its query into the GraphQL
 * arguments). Each argument is a REST filter of the same name, typed as JSON
 * (lists as arrays): a new filter of the list is one more property here.
 */
export const mentionSearchInput = z.strictObject({
  keywordIds: z.array(z.string().min(1)).min(1).optional().describe('Only mentions of these keywords (ids from list_keywords)'),
  platforms: z.array(z.enum(platforms)).min(1).optional().describe('Only mentions from these platforms'),
  relevant: z.boolean().optional().describe('true (the default): only mentions the classifier scored relevant; false: the rest, unclassified ones included'),
  status: z.enum(['open', 'done', 'ignored']).optional().describe('Only mentions in this triage status; all statuses when left out'),
  alertId: z.string().min(1).optional().describe("Only the mentions this alert rule sends (its filter applied; ids from list_alert_rules)"),
  limit: z.number().int().min(1).max(100).optional().describe('How many, 1 to 100 (default 20)'),
  cursor: z.string().min(1).optional().describe('The nextCursor of the previous answer, for the next page'),
});

/** A page of 20 unless asked otherwise: enough to read, not so much it floods the conversation. */
export const mentionSearchQuery = (args: z.input<typeof mentionSearchInput>) => ({ ...args, limit: args.limit ?? 20 });
