import { z } from 'zod';
import { mentionFilterJson, mentionSorts } from '../subgraphs/mentions/index.ts';

/**
 * The mention-search tool's arguments and how they become the mention list's
 * request (`GET /v1/mentions`, whose route turns its query into the GraphQL
 * arguments). The arguments are the list's filters (spec 4.3), every one of
 * them, typed as JSON (lists as arrays), as the mentions subgraph defines
 * them: a new filter of the list is a new argument here without a change.
 */
export const mentionSearchInput = z.strictObject({
  ...mentionFilterJson.shape,
  sort: z.enum(mentionSorts).optional().describe('newest (the default): newest match first; priority: highest attention score first'),
  limit: z.number().int().min(1).max(100).optional().describe('How many, 1 to 100 (default 20)'),
  cursor: z.string().min(1).optional().describe('The nextCursor of the previous answer, for the next page (with the same sort)'),
});

/** A page of 20 unless asked otherwise: enough to read, not so much it floods the conversation. */
export const mentionSearchQuery = (args: z.input<typeof mentionSearchInput>) => ({ ...args, limit: args.limit ?? 20 });
