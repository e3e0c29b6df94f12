import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { findMention, type MentionRow, updateMention } from './mention-store.ts';

export const mentionPatchInput = z.strictObject({
  status: z.enum(['open', 'done', 'ignored']).optional(),
  assigneeId: z.string().min(1).nullable().optional(),
  relevant: z.boolean().nullable().optional(),
  sentiment: z.enum(['positive', 'negative', 'neutral']).nullable().optional(),
});

/**
 * PATCH of a mention (spec 4.3, 2.4): status moves, assignment and user
 * verdicts. A verdict needs the classifier's own value to keep beside it, so
 * an unscored mention answers `classification_pending`; null withdraws a
 * verdict. Verdicts never bill or unbill.
 */
export async function patchMention(sql: Sql, workspaceId: string, id: string, rawPatch: unknown): Promise<MentionRow> {
  const patch = parseInput(mentionPatchInput, rawPatch);
  const current = await findMention(sql, workspaceId, id);
  if (!current) throw notFound('Mention');
  const givesVerdict = (patch.relevant !== undefined && patch.relevant !== null) || (patch.sentiment !== undefined && patch.sentiment !== null);
  if (givesVerdict && current.relevance === null) {
    throw domainError('classification_pending', 'The mention is not classified yet; give a verdict once it is');
  }
  if (patch.assigneeId) {
    // Members arrive with the team API; until then nobody can be assigned.
    throw domainError('invalid_assignee', 'assigneeId: not a member of this workspace', { field: 'assigneeId' });
  }
  await updateMention(sql, workspaceId, id, {
    status: patch.status,
    assigneeId: patch.assigneeId,
    verdictRelevant: patch.relevant,
    verdictSentiment: patch.sentiment,
  });
  return (await findMention(sql, workspaceId, id))!;
}
