import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, changeMemberRole, type MemberRole, removeMember } from '../subgraphs/team/member-store.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

const joinedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** A workspace owned by `owner@…` with one user of each other role, all with addresses unique to this call. */
async function team(label: string) {
  const created = await provisionWorkspace(earshot.sql, `Team ${label}`, { ownerEmail: `Owner.${label}@Example.com` });
  const people: Record<string, string> = { owner: created.owner!.id };
  for (const role of ['admin', 'member'] as MemberRole[]) {
    const user = await findOrCreateUser(earshot.sql, { email: `${role}.${label}@example.com`, name: `${role} ${label}` });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: user.id, role });
    people[role] = user.id;
  }
  return { workspaceId: created.workspace.id, key: created.apiKey, owner: created.owner!, people };
}

const remove = (workspaceId: string, actorUserId: string, memberId: string) =>
  removeMember(earshot.sql, { workspaceId, actorUserId, memberId }).then(
    (removed) => ({ removed: removed.id }),
    (error) => ({ code: error.extensions?.code as string }),
  );

const changeRole = (workspaceId: string, actorUserId: string, memberId: string, role: MemberRole) =>
  changeMemberRole(earshot.sql, { workspaceId, actorUserId, memberId, role }).then(
    (changed) => ({ role: changed.role }),
    (error) => ({ code: error.extensions?.code as string }),
  );

describe('members', () => {
  it('provisioning with an owner address makes that user (created or found, case aside) the owner', async () => {
    const first = await provisionWorkspace(earshot.sql, 'First', { ownerEmail: '  Dana@Example.COM ' });
    expect(first.owner).toEqual({ id: expect.stringMatching(/^usr_[0-9a-z]{26}$/), email: 'dana@example.com', name: 'Dana' });
    const second = await provisionWorkspace(earshot.sql, 'Second', { ownerEmail: 'dana@example.com' });
    expect(second.owner).toEqual(first.owner);

    const listed = await earshot.rest('GET', '/v1/members', { key: second.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [{ ...first.owner, role: 'owner', joinedAt }] });
  });

  it('lists every member with an API key, and only those of its own workspace', async () => {
    const a = await team('list-a');
    const b = await team('list-b');
    const listed = await earshot.rest('GET', '/v1/members', { key: a.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id: a.people.owner, email: 'owner.list-a@example.com', name: 'Owner.list-a', role: 'owner', joinedAt },
      { id: a.people.admin, email: 'admin.list-a@example.com', name: 'admin list-a', role: 'admin', joinedAt },
      { id: a.people.member, email: 'member.list-a@example.com', name: 'member list-a', role: 'member', joinedAt },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('list-b');
    expect((await earshot.rest('GET', '/v1/members', { key: b.key })).body.data.map((m: { id: string }) => m.id)).toEqual([
      b.people.owner,
      b.people.admin,
      b.people.member,
    ]);
  });

  it('refuses any removal made with an API key: 403 forbidden, over REST and GraphQL, and nothing changes', async () => {
    const a = await team('api-key');
    const refused = await earshot.rest('DELETE', `/v1/members/${a.people.member}`, { key: a.key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: { code: 'forbidden', message: expect.stringContaining('signed-in'), requestId: refused.headers.get('x-request-id') },
    });
    const viaGraphQL = await earshot.graphql(`mutation { removeMember(id: "${a.people.member}") { id } }`, {}, a.key);
    expect(viaGraphQL.body.errors[0].extensions.code).toBe('forbidden');
    expect((await earshot.rest('GET', '/v1/members', { key: a.key })).body.data).toHaveLength(3);

    // A key is refused whichever member it names, one of no one included (spec 4.5, 5.8).
    const unknown = await earshot.rest('DELETE', '/v1/members/usr_00000000000000000000000000', { key: a.key });
    expect(unknown.status).toBe(403);
    expect(unknown.body.error.code).toBe('forbidden');

    const unauthenticated = await earshot.rest('DELETE', `/v1/members/${a.people.member}`);
    expect(unauthenticated.status).toBe(401);
  });

  it('lets an owner remove an admin and a member, and an admin remove a member or another admin', async () => {
    const a = await team('owner-removes');
    expect(await remove(a.workspaceId, a.people.owner, a.people.member)).toEqual({ removed: a.people.member });
    expect(await remove(a.workspaceId, a.people.owner, a.people.admin)).toEqual({ removed: a.people.admin });

    const b = await team('admin-removes');
    const second = await findOrCreateUser(earshot.sql, { email: 'second-admin@example.com' });
    await addMember(earshot.sql, { workspaceId: b.workspaceId, userId: second.id, role: 'admin' });
    expect(await remove(b.workspaceId, b.people.admin, b.people.member)).toEqual({ removed: b.people.member });
    expect(await remove(b.workspaceId, b.people.admin, second.id)).toEqual({ removed: second.id });
    expect((await earshot.rest('GET', '/v1/members', { key: b.key })).body.data.map((m: { role: string }) => m.role)).toEqual([
      'owner',
      'admin',
    ]);
  });

  it('refuses a plain member (forbidden), an admin removing an owner (protected_user) and the last owner (last_owner)', async () => {
    const a = await team('refusals');
    expect(await remove(a.workspaceId, a.people.member, a.people.admin)).toEqual({ code: 'forbidden' });
    expect(await remove(a.workspaceId, a.people.member, a.people.member)).toEqual({ code: 'forbidden' });
    expect(await remove(a.workspaceId, a.people.admin, a.people.owner)).toEqual({ code: 'protected_user' });
    expect(await remove(a.workspaceId, a.people.owner, a.people.owner)).toEqual({ code: 'last_owner' });

    // With a second owner, either may go, but not both.
    const other = await findOrCreateUser(earshot.sql, { email: 'co-owner@example.com' });
    await addMember(earshot.sql, { workspaceId: a.workspaceId, userId: other.id, role: 'owner' });
    expect(await remove(a.workspaceId, a.people.admin, other.id)).toEqual({ code: 'protected_user' });
    expect(await remove(a.workspaceId, a.people.owner, other.id)).toEqual({ removed: other.id });
    expect(await remove(a.workspaceId, a.people.owner, a.people.owner)).toEqual({ code: 'last_owner' });
  });

  it('keeps one owner when two owners remove each other at the same time', async () => {
    const a = await team('race');
    const other = await findOrCreateUser(earshot.sql, { email: 'race-owner@example.com' });
    await addMember(earshot.sql, { workspaceId: a.workspaceId, userId: other.id, role: 'owner' });
    const outcomes = await Promise.all([
      remove(a.workspaceId, a.people.owner, other.id),
      remove(a.workspaceId, other.id, a.people.owner),
    ]);
    expect(outcomes.filter((outcome) => 'removed' in outcome)).toHaveLength(1);
    const owners = await earshot.sql`select user_id from workspace_members where workspace_id = ${a.workspaceId} and role = 'owner'`;
    expect(owners).toHaveLength(1);
  });

  it('treats an unknown user and a user of another workspace alike: not_found, and the other workspace is untouched', async () => {
    const a = await team('isolation-a');
    const b = await team('isolation-b');
    expect(await remove(a.workspaceId, a.people.owner, b.people.member)).toEqual({ code: 'not_found' });
    expect(await remove(a.workspaceId, a.people.owner, 'usr_00000000000000000000000000')).toEqual({ code: 'not_found' });
    // An owner of B is no one in A.
    expect(await remove(a.workspaceId, b.people.owner, a.people.member)).toEqual({ code: 'forbidden' });
    expect((await earshot.rest('GET', '/v1/members', { key: b.key })).body.data).toHaveLength(3);
  });

  it('changes roles under the same rules: owners and admins only, only an owner touches owners, the last owner stays one', async () => {
    const a = await team('roles');
    expect(await changeRole(a.workspaceId, a.people.member, a.people.member, 'admin')).toEqual({ code: 'forbidden' });
    expect(await changeRole(a.workspaceId, a.people.admin, a.people.member, 'owner')).toEqual({ code: 'forbidden' });
    expect(await changeRole(a.workspaceId, a.people.admin, a.people.owner, 'member')).toEqual({ code: 'protected_user' });
    expect(await changeRole(a.workspaceId, a.people.owner, a.people.owner, 'admin')).toEqual({ code: 'last_owner' });
    expect(await changeRole(a.workspaceId, a.people.admin, a.people.member, 'admin')).toEqual({ role: 'admin' });
    expect(await changeRole(a.workspaceId, a.people.owner, a.people.admin, 'owner')).toEqual({ role: 'owner' });
    // Now two owners: one may step down, then the other is the last.
    expect(await changeRole(a.workspaceId, a.people.owner, a.people.owner, 'member')).toEqual({ role: 'member' });
    expect(await changeRole(a.workspaceId, a.people.admin, a.people.admin, 'admin')).toEqual({ code: 'last_owner' });

    const byKey = await earshot.rest('PATCH', `/v1/members/${a.people.member}`, { key: a.key, body: { role: 'member' } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('forbidden');
    // Refused whatever the body (spec 5.8 shows none): a key's bad role is not read.
    const badRole = await earshot.rest('PATCH', `/v1/members/${a.people.member}`, { key: a.key, body: { role: 'boss' } });
    expect(badRole.status).toBe(403);
    expect(badRole.body.error.code).toBe('forbidden');
  });
});
