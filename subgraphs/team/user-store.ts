import { insertedOrExisting, type Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

/** Addresses are compared without regard to case or surrounding spaces. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The name a user gets when none is given: the part of the address before the `@`, as typed. */
const defaultName = (email: string) => email.slice(0, email.indexOf('@')) || email;

/** The user with this address, created (with `name`, else a name from the address) when there is none. */
export async function findOrCreateUser(sql: Queryable, input: { email: string; name?: string }): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const row = await insertedOrExisting(() => sql<UserRow[]>`
    /* findOrCreateUser */
    with created as (
      insert into users (id, email, name) values (${newId('usr')}, ${email}, ${input.name?.trim() || defaultName(input.email.trim())})
      on conflict (email) do nothing
      returning id, email, name, created_at
    )
    select id, email, name, created_at from created
    union all
    select id, email, name, created_at from users where email = ${email}
    limit 1`);
  return row;
}

export async function findUser(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    /* findUser */
    select id, email, name, created_at from users where id = ${id}`;
  return row;
}

export async function findUserByEmail(sql: Queryable, email: string): Promise<(UserRow & { passwordHash: string | null }) | undefined> {
  const [row] = await sql<(UserRow & { passwordHash: string | null })[]>`
    /* findUserByEmail */
    select id, email, name, created_at, password_hash from users where email = ${normaliseEmail(email)}`;
  return row;
}

export async function setPasswordHash(sql: Queryable, userId: string, passwordHash: string): Promise<void> {
  await sql`
    /* setPasswordHash */
    update users set password_hash = ${passwordHash} where id = ${userId}`;
}

/** The workspace a sign-in without one opens: the one the user joined first. */
export async function firstWorkspaceOf(sql: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await sql<{ workspaceId: string }[]>`
    /* firstWorkspaceOf */
    select workspace_id from workspace_members where user_id = ${userId} order by joined_at, workspace_id limit 1`;
  return row?.workspaceId;
}

/** Whether the user takes owner e-mails (spec 6.4): on unless they turned them off. */
export async function findNotificationSettings(sql: Queryable, userId: string): Promise<{ email: string; ownerEmails: boolean } | undefined> {
  const [row] = await sql<{ email: string; ownerEmails: boolean }[]>`
    /* findNotificationSettings */
    select email, owner_emails from users where id = ${userId}`;
  return row;
}

export async function setOwnerEmails(sql: Queryable, userId: string, ownerEmails: boolean): Promise<{ email: string; ownerEmails: boolean } | undefined> {
  const [row] = await sql<{ email: string; ownerEmails: boolean }[]>`
    /* setOwnerEmails */
    update users set owner_emails = ${ownerEmails} where id = ${userId}
    returning email, owner_emails`;
  return row;
}
