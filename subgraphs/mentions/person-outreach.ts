import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError, notFound } from '../domain-error.ts';
import { timestampInput } from '../storable-instant.ts';
import { parseInput } from '../validate-input.ts';
import { deletePersonActivity, insertPersonActivity, type PersonActivityRow } from './person-activity-store.ts';
import { ownerId, personStages } from './person-filter.ts';
import { findPerson, listPersonAccounts, lockPeople, type PersonRow, recordContact, updatePerson } from './person-store.ts';

/** PATCH /v1/people/{id} (spec 3.5, 4.7): omitted fields stay; `ownerId` null leaves the person unowned. */
export const personPatchInput = z.strictObject({
  ownerId: ownerId.nullable().optional().meta({ description: 'A member of this workspace (user id); null: nobody' }),
  stage: z.enum(personStages).optional().meta({ description: 'Where the outreach stands, from not_contacted to customer or not_a_fit' }),
  muted: z.boolean().optional().meta({ description: "true: the person's mentions are never delivered and stay out of lists unless asked for" }),
});

/** Ways a contact is made (spec 2.11.4). */
export const activityChannels = ['email', 'x', 'linkedin', 'reddit', 'bluesky', 'github', 'slack', 'discord', 'call', 'meeting', 'other'] as const;

/** Other names people give a channel: the spec writes "e-mail", "X" and "LinkedIn". */
const channelAliases: Record<string, (typeof activityChannels)[number]> = { 'e-mail': 'email', mail: 'email', twitter: 'x', phone: 'call' };

/** A channel as written, in any case or by another of its names, read as its one spelling. */
const activityChannel = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const written = value.trim().toLowerCase();
  return channelAliases[written] ?? written;
}, z.enum(activityChannels));

/** How far ahead of the server's clock an `occurredAt` may be: clocks of callers drift. */
const clockSkewMs = 5 * 60_000;

/** POST /v1/people/{id}/activities. */
export const personActivityInput = z.strictObject({
  channel: activityChannel.meta({ description: 'Any case; `e-mail` is `email`, `twitter` is `x`, `phone` is `call`' }),
  note: z.string().trim().max(1000, 'must be at most 1000 characters').optional().meta({ description: 'A short note, at most 1000 characters' }),
  occurredAt: timestampInput('must be an ISO 8601 timestamp such as 2026-11-20T10:00:00Z').optional().meta({ description: 'When the contact was made, not in the future; default now' }),
  authorId: z.string().min(1).max(100).optional().meta({ description: "The account contacted (`aut_…`), one of the person's" }),
});

/** POST /v1/people/{id}/merge. */
export const personMergeInput = z.strictObject({
  personId: z.string().min(1).max(100).meta({ description: 'The person merged into this one; its accounts and activities move here and its id stops answering' }),
});

/** POST /v1/people/{id}/split. */
export const personSplitInput = z.strictObject({
  authorId: z.string().min(1).max(100).meta({ description: "The account (`aut_…`) taken out into a person of its own" }),
});

export async function patchPerson(sql: Sql, workspaceId: string, id: string, rawPatch: unknown): Promise<PersonRow> {
  const patch = parseInput(personPatchInput, rawPatch);
  if (!(await updatePerson(sql, workspaceId, id, patch))) throw notFound('Person');
  return (await findPerson(sql, workspaceId, id))!;
}

/**
 * Logs a contact (spec 2.11.4, 3.5.2). It is made by the signed-in user;
 * an API key stands for no one, so an activity logged with a key is made by
 * that key (`userId` null). Logging claims an unowned person for the user
 * who made it (a key claims nobody) and moves a person not yet contacted to
 * `contacted`; an owner is never taken away and a later stage is kept. For
 * the first activity of a person this is 3.5.2's rule word for word.
 */
export async function logPersonActivity(sql: Sql, auth: RequestAuth, personId: string, rawInput: unknown, now: Date): Promise<PersonActivityRow> {
  const input = parseInput(personActivityInput, rawInput);
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : now;
  if (occurredAt.getTime() > now.getTime() + clockSkewMs) {
    throw domainError('validation_error', 'occurredAt: must not be in the future', { field: 'occurredAt' });
  }
  return sql.begin(async (tx) => {
    const [person] = await lockPeople(tx, auth.workspaceId, [personId]);
    if (!person) throw notFound('Person');
    if (input.authorId && !(await listPersonAccounts(tx, auth.workspaceId, [personId])).some((account) => account.id === input.authorId)) {
      throw domainError('validation_error', "authorId: not one of this person's accounts", { field: 'authorId' });
    }
    const activity = await insertPersonActivity(tx, {
      id: newId('act'),
      workspaceId: auth.workspaceId,
      personId,
      authorId: input.authorId ?? null,
      channel: input.channel,
      note: input.note ?? '',
      userId: auth.userId,
      apiKeyId: auth.apiKeyId,
      occurredAt,
    });
    await recordContact(tx, auth.workspaceId, personId, auth.userId);
    return activity;
  });
}

/** Removes an activity; the owner and stage it brought stay (an owner is never taken away). */
export async function removePersonActivity(sql: Sql, workspaceId: string, personId: string, activityId: string): Promise<void> {
  if (!(await findPerson(sql, workspaceId, personId))) throw notFound('Person');
  if (!(await deletePersonActivity(sql, workspaceId, personId, activityId))) throw notFound('Activity');
}
