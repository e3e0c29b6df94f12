import type { Queryable } from '../../runtime/database.ts';

/** A contact logged against a person (spec 2.11.4). */
export interface PersonActivityRow {
  id: string;
  workspaceId: string;
  personId: string;
  /** The account contacted, when the activity names one. */
  authorId: string | null;
  channel: string;
  note: string;
  /** The signed-in user who logged it; null when an API key did. */
  userId: string | null;
  /** The API key it was logged with, if any. */
  apiKeyId: string | null;
  occurredAt: Date;
  createdAt: Date;
}

export async function insertPersonActivity(sql: Queryable, activity: Omit<PersonActivityRow, 'createdAt'>): Promise<PersonActivityRow> {
  const [row] = await sql<PersonActivityRow[]>`
    /* insertPersonActivity */
    insert into person_activities (id, workspace_id, person_id, author_id, channel, note, user_id, api_key_id, occurred_at)
    values (${activity.id}, ${activity.workspaceId}, ${activity.personId}, ${activity.authorId}, ${activity.channel}, ${activity.note},
            ${activity.userId}, ${activity.apiKeyId}, ${activity.occurredAt})
    returning *`;
  return row;
}

/** A page of a person's activities, latest contact first, after an `(occurredAt, id)` cursor. */
export async function listPersonActivitiesPage(
  sql: Queryable,
  workspaceId: string,
  personId: string,
  page: { after: { occurredAt: Date; id: string } | null; limit: number },
): Promise<PersonActivityRow[]> {
  const { after } = page;
  return sql<PersonActivityRow[]>`
    /* listPersonActivitiesPage */
    select * from person_activities
    where workspace_id = ${workspaceId} and person_id = ${personId}
      ${after ? sql`and (occurred_at, id) < (${after.occurredAt}, ${after.id})` : sql``}
    order by occurred_at desc, id desc
    limit ${page.limit}`;
}

export async function deletePersonActivity(sql: Queryable, workspaceId: string, personId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deletePersonActivity */
    delete from person_activities where workspace_id = ${workspaceId} and person_id = ${personId} and id = ${id} returning id`;
  return rows.length > 0;
}

/** When each of these people was last contacted (their latest activity); people never contacted are left out. */
export async function lastContactTimes(sql: Queryable, workspaceId: string, personIds: readonly string[]): Promise<Map<string, Date>> {
  const rows = await sql<{ personId: string; lastContactAt: Date }[]>`
    /* lastContactTimes */
    select person_id, max(occurred_at) as last_contact_at from person_activities
    where workspace_id = ${workspaceId} and person_id = any(${sql.array(personIds as string[])})
    group by person_id`;
  return new Map(rows.map((row) => [row.personId, row.lastContactAt]));
}
