import { z } from 'zod';
import { sentiments } from '../../vocabulary/classification-values.ts';
import type { Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';
import { timestampInput } from '../storable-instant.ts';
import { parseInput } from '../validate-input.ts';
import { findMentionsByIds, holdAssignee, lockMentionsForTriage, type MentionRow, updateMentions } from './mention-store.ts';

/** Longest triage note; longer notes belong in the team's own tools. */
export const maxTriageNoteLength = 2000;
/** Most mentions one bulk change touches: a few inbox pages at once, one transaction. */
export const maxBulkMentions = 500;

export const mentionPatchInput = z.strictObject({
  status: z.enum(['open', 'done', 'ignored']).optional().meta({ description: 'open (new or reopened), done (handled) or ignored' }),
  assigneeId: z
    .string()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters long')
    .nullable()
    .optional()
    .meta({ description: "A workspace member's user id (`usr_…`); null unassigns" }),
  relevant: z.boolean().nullable().optional().meta({ description: "The user's verdict; null restores the classifier's" }),
  sentiment: z.enum(sentiments).nullable().optional().meta({ description: "A corrected sentiment; null restores the classifier's" }),
  snoozedUntil: timestampInput('must be an ISO 8601 timestamp such as 2026-11-20T10:00:00Z')
    .nullable()
    .optional()
    .meta({ description: 'Kept out of lists until then (spec 3.3); null wakes it now' }),
  note: z.string().max(maxTriageNoteLength, `must be at most ${maxTriageNoteLength} characters long`).nullable().optional(),
});

export const mentionsBulkInput = z.strictObject({
  ids: z
    .array(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters long'))
    .min(1, 'must name at least one mention')
    .max(maxBulkMentions, `must name at most ${maxBulkMentions} mentions`),
  changes: mentionPatchInput,
});

/** A patch as parsed, and for the compatibility API's relevance write the score its relevant verdict sets. */
type MentionPatch = z.output<typeof mentionPatchInput> & { relevanceScore?: 100 };

/** How an error names the mention at a position: by its place in a bulk request's `ids`, or not at all for one. */
type Naming = (position: number) => { field?: string; prefix: string };

/**
 * Applies one patch to the workspace's mentions `ids`, all or nothing, in
 * one transaction: an id that is not the workspace's is `not_found`; a
 * verdict needs the classifier's own value to keep beside it, so a mention
 * not scored yet is `classification_pending`; an assignee who is not a
 * member is `invalid_assignee`. Verdicts never bill or unbill.
 */
async function triage(sql: Sql, workspaceId: string, ids: readonly string[], patch: MentionPatch, naming: Naming): Promise<MentionRow[]> {
  const givesVerdict = (patch.relevant !== undefined && patch.relevant !== null) || (patch.sentiment !== undefined && patch.sentiment !== null);
  await sql.begin(async (tx) => {
    if (patch.assigneeId) await holdAssignee(tx, workspaceId, patch.assigneeId);
    const found = await lockMentionsForTriage(tx, workspaceId, ids);
    for (const [position, id] of ids.entries()) {
      const { field, prefix } = naming(position);
      const mention = found.get(id);
      if (!mention) throw domainError('not_found', `${prefix}Mention not found`, field ? { field } : {});
      if (givesVerdict && mention.relevance === null) {
        throw domainError('classification_pending', `${prefix}The mention is not classified yet; give a verdict once it is`, field ? { field } : {});
      }
    }
    await updateMentions(tx, workspaceId, ids, {
      status: patch.status,
      assigneeId: patch.assigneeId,
      verdictRelevant: patch.relevant,
      verdictRelevance: patch.relevanceScore,
      verdictSentiment: patch.sentiment,
      snoozedUntil: patch.snoozedUntil === undefined || patch.snoozedUntil === null ? patch.snoozedUntil : new Date(patch.snoozedUntil),
      triageNote: patch.note,
    });
  });
  const rows = new Map((await findMentionsByIds(sql, ids)).map((row) => [row.id, row]));
  return ids.map((id) => rows.get(id)!);
}

/** PATCH of one mention (spec 4.3, 2.4, 3.3): status, assignment, verdicts, snooze and note. */
export async function patchMention(sql: Sql, workspaceId: string, id: string, rawPatch: unknown): Promise<MentionRow> {
  const patch = parseInput(mentionPatchInput, rawPatch);
  const [mention] = await triage(sql, workspaceId, [id], patch, () => ({ prefix: '' }));
  return mention;
}

/**
 * The compatibility API's relevance write (spec 4.8): 0 or 1 give a
 * relevant verdict that sets the shown score to 100, 2 a not-relevant
 * verdict, 3 withdraws the verdict and so restores the classifier's score.
 */
export async function writeCompatRelevance(sql: Sql, workspaceId: string, id: string, write: 0 | 1 | 2 | 3): Promise<MentionRow> {
  const patch: MentionPatch = write === 3 ? { relevant: null } : write === 2 ? { relevant: false } : { relevant: true, relevanceScore: 100 };
  const [mention] = await triage(sql, workspaceId, [id], patch, () => ({ prefix: '' }));
  return mention;
}

/**
 * Flips a mention between done and open (the compatibility API's engaged
 * flag), deciding on the locked row: flips sent at once each flip, where
 * deciding on an earlier read made them all write the same state.
 */
export async function toggleMentionDone(sql: Sql, workspaceId: string, id: string): Promise<MentionRow> {
  await sql.begin(async (tx) => {
    const mention = (await lockMentionsForTriage(tx, workspaceId, [id])).get(id);
    if (!mention) throw notFound('Mention');
    await updateMentions(tx, workspaceId, [id], { status: mention.status === 'done' ? 'open' : 'done' });
  });
  const [mention] = await findMentionsByIds(sql, [id]);
  return mention;
}

/** The same patch on many mentions at once, for inbox-zero work: all of them change, or none and the error names the first bad id. */
export async function patchMentions(sql: Sql, workspaceId: string, rawInput: unknown): Promise<MentionRow[]> {
  const { ids, changes } = parseInput(mentionsBulkInput, rawInput);
  const unique = [...new Set(ids)];
  return triage(sql, workspaceId, unique, changes, (position) => {
    const field = `ids.${ids.indexOf(unique[position])}`;
    return { field, prefix: `${field}: ${unique[position]}: ` };
  });
}
