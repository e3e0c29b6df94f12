import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import type { PeopleFilter, PersonStage } from './person-filter.ts';
import { mutedPersonSql } from './mention-filter.ts';
import { peopleFilterSql, personAutomatedSql } from './person-filter.ts';
import { relevantSql } from './relevance.ts';

/** A person of one workspace (spec 2.11.3): its outreach and whether it is muted; its accounts are read apart. */
export interface PersonRow {
  id: string;
  workspaceId: string;
  ownerId: string | null;
  stage: PersonStage;
  muted: boolean;
  createdAt: Date;
}

/** An account of a person: the author, as every workspace sees it, and whether it was split out by hand. */
export interface PersonAccountRow {
  personId: string;
  id: string;
  platform: string;
  name: string;
  handle: string;
  url: string;
  avatarUrl: string | null;
  followers: number | null;
  tags: string[];
  profileLinks: string[] | null;
  held: boolean;
  /** This account's mentions in the person's workspace. */
  mentions: number;
}

export interface PersonMentionStats {
  personId: string;
  mentions: number;
  relevant: number;
  automated: boolean;
}

/** A workspace and an author of a mention stored there. */
export interface AuthorSighting {
  workspaceId: string;
  authorId: string;
}

const personColumns = (sql: Queryable) => sql`pe.id, pe.workspace_id, pe.owner_id, pe.stage, pe.muted, pe.created_at`;

/**
 * Gives every author a workspace sees for the first time a person of its
 * own there (one new `per_` id per sighting, used only when the account is
 * new). The account is claimed first, so two writers seeing the same new
 * author make one person: the second finds the account taken; claims are
 * made in key order, so two writers wait for each other rather than deadlock.
 * Returns the sightings whose account was new to its workspace.
 */
export async function attachPersonAccounts(sql: Queryable, sightings: readonly (AuthorSighting & { newPersonId: string })[]): Promise<AuthorSighting[]> {
  if (sightings.length === 0) return [];
  return sql<AuthorSighting[]>`
    /* attachPersonAccounts */
    with wanted as (
      select distinct on (workspace_id, author_id) workspace_id, author_id, person_id
      from unnest(${sql.array(sightings.map((s) => s.workspaceId))}::text[],
                  ${sql.array(sightings.map((s) => s.authorId))}::text[],
                  ${sql.array(sightings.map((s) => s.newPersonId))}::text[]) as t(workspace_id, author_id, person_id)
      order by workspace_id, author_id
    ), attached as (
      insert into person_accounts (workspace_id, author_id, person_id)
      select workspace_id, author_id, person_id from wanted
      order by workspace_id, author_id
      on conflict (workspace_id, author_id) do nothing
      returning workspace_id, author_id, person_id
    ), new_people as (
      insert into people (id, workspace_id) select person_id, workspace_id from attached
    )
    select workspace_id, author_id from attached`;
}

/**
 * Pairs of people of one workspace that the accounts just seen prove to be
 * one (spec 2.11.3): one account's profile links to the other's profile, or
 * both profiles link to the same address. A shared address counts only
 * while no two accounts of one platform in the workspace carry it, since
 * then it is a company's or a project's, not a person's. Accounts split out
 * by hand never take part.
 */
export async function findLinkedPeople(sql: Queryable, sightings: readonly AuthorSighting[]): Promise<{ workspaceId: string; personId: string; otherPersonId: string }[]> {
  if (sightings.length === 0) return [];
  return sql<{ workspaceId: string; personId: string; otherPersonId: string }[]>`
    /* findLinkedPeople */
    with seen as (
      select distinct f.workspace_id, f.author_id, pa.person_id, a.platform, a.profile_key, coalesce(a.link_keys, '{}') as link_keys
      from unnest(${sql.array(sightings.map((s) => s.workspaceId))}::text[], ${sql.array(sightings.map((s) => s.authorId))}::text[])
             as f(workspace_id, author_id)
      join person_accounts pa on pa.workspace_id = f.workspace_id and pa.author_id = f.author_id and not pa.held
      join authors a on a.id = f.author_id
    ), links as materialized (
      -- Most accounts link nowhere: starting from their links, not from every
      -- account of the workspace, keeps a batch of them nearly free.
      select s.workspace_id, s.author_id, s.person_id, s.platform, link.key
      from seen s cross join lateral unnest(s.link_keys) as link(key)
    ), pointed as (
      select l.workspace_id, l.person_id, other.id as other_id
      from links l join authors other on other.profile_key = l.key
      union
      -- One search of the links index for the whole batch, not one per account.
      select s.workspace_id, s.person_id, other.id
      from authors other join seen s on s.profile_key = any(other.link_keys)
      where other.link_keys && (select array_agg(profile_key) from seen where profile_key is not null)
    ), shared as (
      select l.workspace_id, l.author_id, l.person_id, l.platform as own_platform, l.key, other.id as other_id, other.platform
      from links l
      join authors other on other.link_keys @> array[l.key] and other.id <> l.author_id
      join person_accounts opa on opa.workspace_id = l.workspace_id and opa.author_id = other.id
    ), personal as (
      select workspace_id, author_id, key from shared
      group by workspace_id, author_id, key, own_platform
      having count(distinct platform) = count(*) and not bool_or(platform = own_platform)
    ), linked as (
      select workspace_id, person_id, other_id from pointed
      union
      select shared.workspace_id, shared.person_id, shared.other_id from shared join personal using (workspace_id, author_id, key)
    )
    select distinct linked.workspace_id, linked.person_id, opa.person_id as other_person_id
    from linked join person_accounts opa on opa.workspace_id = linked.workspace_id and opa.author_id = linked.other_id and not opa.held
    where opa.person_id <> linked.person_id`;
}

/** These people of the workspace, locked for a merge or split, in id order so two writers never deadlock. */
export async function lockPeople(sql: Queryable, workspaceId: string, ids: readonly string[]): Promise<PersonRow[]> {
  return sql<PersonRow[]>`
    /* lockPeople */
    select ${personColumns(sql)} from people pe
    where pe.workspace_id = ${workspaceId} and pe.id = any(${sql.array(ids as string[])})
    order by pe.id
    for update`;
}

/** Moves every account and activity of `mergedIds` to the survivor, gives it the outreach settled on, and removes them. */
export async function foldPeopleInto(
  sql: Queryable,
  workspaceId: string,
  survivorId: string,
  mergedIds: readonly string[],
  outreach: { ownerId: string | null; stage: PersonStage; muted: boolean },
): Promise<void> {
  const merged = sql.array(mergedIds as string[]);
  await sql`
    /* movePersonAccounts */
    update person_accounts set person_id = ${survivorId} where workspace_id = ${workspaceId} and person_id = any(${merged})`;
  await sql`
    /* movePersonActivities */
    update person_activities set person_id = ${survivorId} where workspace_id = ${workspaceId} and person_id = any(${merged})`;
  await sql`
    /* removeMergedPeople */
    delete from people where workspace_id = ${workspaceId} and id = any(${merged})`;
  await sql`
    /* settleMergedOutreach */
    update people set owner_id = ${outreach.ownerId}, stage = ${outreach.stage}, muted = ${outreach.muted}
    where workspace_id = ${workspaceId} and id = ${survivorId}`;
}

/** A new person holding one account of the workspace, split out by hand (held), with the activities that name that account. */
export async function splitAccountOut(sql: Queryable, workspaceId: string, authorId: string, newPersonId: string): Promise<void> {
  await sql`
    /* insertSplitPerson */
    insert into people (id, workspace_id) values (${newPersonId}, ${workspaceId})`;
  await sql`
    /* holdSplitAccount */
    update person_accounts set person_id = ${newPersonId}, held = true where workspace_id = ${workspaceId} and author_id = ${authorId}`;
  await sql`
    /* moveSplitActivities */
    update person_activities set person_id = ${newPersonId} where workspace_id = ${workspaceId} and author_id = ${authorId}`;
}

export async function findPerson(sql: Queryable, workspaceId: string, id: string): Promise<PersonRow | undefined> {
  const [row] = await sql<PersonRow[]>`
    /* findPerson */
    select ${personColumns(sql)} from people pe where pe.workspace_id = ${workspaceId} and pe.id = ${id}`;
  return row;
}

/** A person as the people list reads it: with its first-seen time to the microsecond, which its cursor holds. */
export type ListedPerson = PersonRow & { sortAt: string };

/**
 * A page of the workspace's people passing every filter given (a segment's
 * and the request's together), newest first: by when the workspace first
 * saw them, after a `(createdAt, id)` cursor.
 */
export async function listPeoplePage(
  sql: Queryable,
  workspaceId: string,
  page: { filters: readonly PeopleFilter[]; after: { createdAt: string; id: string } | null; limit: number },
): Promise<ListedPerson[]> {
  const { after } = page;
  // The time travels as text both ways: through a Date it would lose its microseconds.
  return sql<ListedPerson[]>`
    /* listPeoplePage */
    select ${personColumns(sql)}, to_char(pe.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_at
    from people pe
    where pe.workspace_id = ${workspaceId}
      ${page.filters.map((filter) => sql`and ${peopleFilterSql(sql, filter)}`)}
      ${after ? sql`and (pe.created_at, pe.id) < (${after.createdAt}::text::timestamptz, ${after.id})` : sql``}
    order by pe.created_at desc, pe.id desc
    limit ${page.limit}`;
}

/** Outreach and muting changes of PATCH /v1/people/{id}; an absent field stays. */
export interface PersonChanges {
  ownerId?: string | null;
  stage?: PersonStage;
  muted?: boolean;
}

/** An owner who is no member of the workspace breaks the foreign key to its members: `invalid_member`, cause kept. */
function translatePersonWriteError(error: unknown): unknown {
  const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
  if (code === '23503' && constraint === 'people_workspace_id_owner_id_fkey') {
    return domainError('invalid_member', 'ownerId: not a member of this workspace', { field: 'ownerId' }, error);
  }
  return error;
}

export async function updatePerson(sql: Queryable, workspaceId: string, id: string, changes: PersonChanges): Promise<boolean> {
  const values: Record<string, unknown> = {};
  if (changes.ownerId !== undefined) values.owner_id = changes.ownerId;
  if (changes.stage !== undefined) values.stage = changes.stage;
  if (changes.muted !== undefined) values.muted = changes.muted;
  if (Object.keys(values).length === 0) return (await findPerson(sql, workspaceId, id)) !== undefined;
  try {
    const rows = await sql`
      /* updatePerson */
      update people set ${sql(values)} where workspace_id = ${workspaceId} and id = ${id} returning id`;
    return rows.length > 0;
  } catch (error) {
    throw translatePersonWriteError(error);
  }
}

/** Claims the person for `userId` when nobody owns it, and moves it from `not_contacted` to `contacted` (spec 3.5.2). */
export async function recordContact(sql: Queryable, workspaceId: string, id: string, userId: string | null): Promise<void> {
  try {
    await sql`
      /* recordContact */
      update people set owner_id = coalesce(owner_id, ${userId}),
                        stage = case when stage = 'not_contacted' then 'contacted' else stage end
      where workspace_id = ${workspaceId} and id = ${id}`;
  } catch (error) {
    throw translatePersonWriteError(error);
  }
}

/** The accounts of these people, each person's most followed first (its first is the one it is shown by). */
export async function listPersonAccounts(sql: Queryable, workspaceId: string, personIds: readonly string[]): Promise<PersonAccountRow[]> {
  return sql<PersonAccountRow[]>`
    /* listPersonAccounts */
    select pa.person_id, a.id, a.platform, a.name, a.handle, a.url, a.avatar_url, a.followers, a.tags, a.profile_links, pa.held,
           (select count(*)::int from posts p join mentions m on m.post_id = p.id and m.workspace_id = pa.workspace_id
            where p.author_id = a.id) as mentions
    from person_accounts pa join authors a on a.id = pa.author_id
    where pa.workspace_id = ${workspaceId} and pa.person_id = any(${sql.array(personIds as string[])})
    order by pa.person_id, a.followers desc nulls last, a.id`;
}

/** How many mentions these people have in their workspace, how many relevant, and whether they count as automated. */
export async function personMentionStats(sql: Queryable, workspaceId: string, personIds: readonly string[]): Promise<PersonMentionStats[]> {
  return sql<PersonMentionStats[]>`
    /* personMentionStats */
    select pe.id as person_id, counted.mentions, counted.relevant, ${personAutomatedSql(sql)} as automated
    from people pe
    cross join lateral (
      select count(*)::int as mentions, (count(*) filter (where ${relevantSql(sql)}))::int as relevant
      from person_accounts pa join posts p on p.author_id = pa.author_id
      join mentions m on m.post_id = p.id and m.workspace_id = pa.workspace_id
      where pa.workspace_id = pe.workspace_id and pa.person_id = pe.id
    ) counted
    where pe.workspace_id = ${workspaceId} and pe.id = any(${sql.array(personIds as string[])})`;
}

/** Each person's newest mention in its workspace, by publication. */
export async function lastPersonMentionIds(sql: Queryable, workspaceId: string, personIds: readonly string[]): Promise<{ personId: string; mentionId: string }[]> {
  return sql<{ personId: string; mentionId: string }[]>`
    /* lastPersonMentionIds */
    select distinct on (pa.person_id) pa.person_id, m.id as mention_id
    from person_accounts pa join posts p on p.author_id = pa.author_id
    join mentions m on m.post_id = p.id and m.workspace_id = pa.workspace_id
    where pa.workspace_id = ${workspaceId} and pa.person_id = any(${sql.array(personIds as string[])})
    order by pa.person_id, m.published_at desc, m.id desc`;
}

/** The person each of these authors belongs to in the workspace. */
export async function findPeopleOfAuthors(sql: Queryable, workspaceId: string, authorIds: readonly string[]): Promise<(PersonRow & { authorId: string })[]> {
  return sql<(PersonRow & { authorId: string })[]>`
    /* findPeopleOfAuthors */
    select pa.author_id, ${personColumns(sql)}
    from person_accounts pa join people pe on pe.id = pa.person_id
    where pa.workspace_id = ${workspaceId} and pa.author_id = any(${sql.array(authorIds as string[])})`;
}

/** Of these mentions, the ones whose author is a muted person of the mention's workspace. */
export async function findMutedMentionIds(sql: Queryable, mentionIds: readonly string[]): Promise<string[]> {
  if (mentionIds.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    /* findMutedMentionIds */
    select m.id from mentions m join posts p on p.id = m.post_id
    where m.id = any(${sql.array(mentionIds as string[])}) and ${mutedPersonSql(sql)}`;
  return rows.map((row) => row.id);
}
