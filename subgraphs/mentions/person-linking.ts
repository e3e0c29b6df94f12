import type postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError, notFound } from '../domain-error.ts';
import type { PersonStage } from './person-filter.ts';
import {
  attachPersonAccounts,
  type AuthorSighting,
  findLinkedPeople,
  foldPeopleInto,
  listPersonAccounts,
  lockPeople,
  type PersonRow,
  splitAccountOut,
} from './person-store.ts';

/**
 * Which accounts are one person (spec 2.11.3): automatic merging as
 * mentions arrive, and merging and splitting by hand. People and their
 * accounts are per workspace; an author is shared by every workspace that
 * saw it, so a merge in one workspace changes nothing in another.
 */

/** Runs `work` in the caller's transaction, or in one of its own. */
function inTransaction<T>(sql: Queryable, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return 'begin' in sql ? (sql.begin((tx) => work(tx)) as Promise<T>) : work(sql as postgres.TransactionSql<{}>);
}

/**
 * What a merged person's outreach becomes: the survivor keeps its own owner
 * and stage; when it has none (unowned, `not_contacted`), it takes the
 * oldest merged person's that has one, so no owner is lost. A person any
 * of whose parts was muted stays muted.
 */
function settleOutreach(survivor: PersonRow, merged: readonly PersonRow[]): { ownerId: string | null; stage: PersonStage; muted: boolean } {
  const oldestFirst = [...merged].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  return {
    ownerId: survivor.ownerId ?? oldestFirst.find((person) => person.ownerId)?.ownerId ?? null,
    stage: survivor.stage !== 'not_contacted' ? survivor.stage : (oldestFirst.find((person) => person.stage !== 'not_contacted')?.stage ?? 'not_contacted'),
    muted: survivor.muted || merged.some((person) => person.muted),
  };
}

/**
 * Merges people of one workspace into `survivorId` (by default the one the
 * workspace saw first): accounts and activities move to it, the others go.
 * People merged or removed meanwhile are left out. Answers whether every
 * person asked was still there.
 */
async function mergePeople(tx: Queryable, workspaceId: string, personIds: readonly string[], survivorId?: string): Promise<boolean> {
  const asked = [...new Set(personIds)];
  const locked = await lockPeople(tx, workspaceId, asked);
  const oldest = [...locked].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))[0];
  const survivor = survivorId ? locked.find((person) => person.id === survivorId) : oldest;
  const merged = locked.filter((person) => person.id !== survivor?.id);
  if (survivor && merged.length > 0) await foldPeopleInto(tx, workspaceId, survivor.id, merged.map((person) => person.id), settleOutreach(survivor, merged));
  return locked.length === asked.length;
}

/** The people each workspace's linked pairs join into, one group per set of pairs that touch. */
function groupsOf(pairs: readonly { workspaceId: string; personId: string; otherPersonId: string }[]): { workspaceId: string; personIds: string[] }[] {
  const parent = new Map<string, string>();
  const root = (key: string): string => {
    const up = parent.get(key)!;
    if (up === key) return key;
    const top = root(up);
    parent.set(key, top);
    return top;
  };
  const key = (workspaceId: string, personId: string) => JSON.stringify([workspaceId, personId]);
  for (const pair of pairs) {
    const [one, other] = [key(pair.workspaceId, pair.personId), key(pair.workspaceId, pair.otherPersonId)];
    if (!parent.has(one)) parent.set(one, one);
    if (!parent.has(other)) parent.set(other, other);
    parent.set(root(one), root(other));
  }
  const groups = new Map<string, { workspaceId: string; personIds: string[] }>();
  for (const member of parent.keys()) {
    const [workspaceId, personId] = JSON.parse(member) as [string, string];
    const group = groups.get(root(member)) ?? { workspaceId, personIds: [] };
    group.personIds.push(personId);
    groups.set(root(member), group);
  }
  return [...groups.values()];
}

/**
 * Every author of mentions just stored belongs to a person of the mention's
 * workspace afterwards (a new one when the workspace had not seen it).
 * Returns the sightings whose account is new to its workspace.
 */
export function attachPeople(sql: Queryable, sightings: readonly AuthorSighting[]): Promise<AuthorSighting[]> {
  return attachPersonAccounts(sql, sightings.map((sighting) => ({ ...sighting, newPersonId: newId('per') })));
}

/** Rounds of linking one batch's sightings: each further round follows a merge another worker made meanwhile, and a few are plenty. */
const linkRounds = 3;

/**
 * Merges into the oldest the people these sightings prove to be one. Only
 * an account new to its workspace, or one whose profile changed, can prove
 * anything new: an account seen before was linked when it was first seen or
 * last changed. Ingestion runs this after its storing transaction commits,
 * a transaction per group (issue 18): reading the links and locking people
 * inside it would hold every other worker's storing behind it.
 *
 * Polls link at once, so a person the links named may have been merged
 * into another by the time its group is locked: its accounts are then the
 * other's, and the links are read again to follow them, where leaving it
 * out would keep the sighted account apart from its person.
 */
export async function linkPeople(sql: Queryable, sightings: readonly AuthorSighting[]): Promise<void> {
  if (sightings.length === 0) return;
  for (let round = 0; round < linkRounds; round++) {
    const linked = await findLinkedPeople(sql, sightings);
    let overtaken = false;
    for (const group of groupsOf(linked)) {
      const allThere = await inTransaction(sql, (tx) => mergePeople(tx, group.workspaceId, group.personIds));
      overtaken ||= !allThere;
    }
    if (!overtaken) return;
  }
}

/** Merges `personId` into `intoId` by hand: `intoId` keeps its id and, where it has them, its owner and stage. */
export function mergePersonInto(sql: Queryable, workspaceId: string, intoId: string, personId: string): Promise<string> {
  if (intoId === personId) throw domainError('validation_error', 'personId: a person cannot be merged into itself', { field: 'personId' });
  return inTransaction(sql, async (tx) => {
    const locked = await lockPeople(tx, workspaceId, [intoId, personId]);
    if (!locked.some((person) => person.id === intoId)) throw notFound('Person');
    if (!locked.some((person) => person.id === personId)) throw domainError('not_found', 'personId: no such person in this workspace', { field: 'personId' });
    await mergePeople(tx, workspaceId, [intoId, personId], intoId);
    return intoId;
  });
}

/**
 * Splits one account out of a person into a person of its own, which
 * automatic merging leaves alone from then on; the activities that name the
 * account go with it. Answers the new person's id.
 */
export function splitPersonAccount(sql: Queryable, workspaceId: string, personId: string, authorId: string): Promise<string> {
  return inTransaction(sql, async (tx) => {
    const [person] = await lockPeople(tx, workspaceId, [personId]);
    if (!person) throw notFound('Person');
    const accounts = await listPersonAccounts(tx, workspaceId, [personId]);
    if (!accounts.some((account) => account.id === authorId)) {
      throw domainError('validation_error', "authorId: not one of this person's accounts", { field: 'authorId' });
    }
    if (accounts.length === 1) throw domainError('validation_error', 'authorId: the person has no other account to keep', { field: 'authorId' });
    const newPersonId = newId('per');
    await splitAccountOut(tx, workspaceId, authorId, newPersonId);
    return newPersonId;
  });
}
