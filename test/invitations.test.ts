import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import { addMember, type MemberRole } from '../subgraphs/team/member-store.ts';
import { insertSession } from '../subgraphs/team/session-store.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';

const clock = manualClock(new Date('2030-04-01T09:00:00.000Z'));
let smtp: FakeSmtp;
let earshot: TestEarshot;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  earshot = await startTestEarshot(
    { env: { EARSHOT_SMTP_URL: smtp.url, EARSHOT_MAIL_FROM: 'Earshot <team@earshot.example>', EARSHOT_PUBLIC_URL: 'https://app.example' } },
    { clock },
  );
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

const timestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

interface Session {
  cookie: string;
  csrf: string;
}

/** A dashboard session of `userId` in `workspaceId`, as a password or link sign-in makes it (those are tested in sessions.test.ts). */
async function signIn(userId: string, workspaceId: string): Promise<Session> {
  const session = await insertSession(earshot.sql, { userId, workspaceId });
  return { cookie: `earshot_session=${session.token}; earshot_csrf=${session.csrfToken}`, csrf: session.csrfToken };
}

const as = (session: Session) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

/** A workspace with a signed-in owner, admin and member, their addresses unique to `label`. */
async function team(label: string) {
  const created = await provisionWorkspace(earshot.sql, `Team ${label}`, { ownerEmail: `owner.${label}@example.com` });
  const people: Record<string, { id: string; session: Session }> = {
    owner: { id: created.owner!.id, session: await signIn(created.owner!.id, created.workspace.id) },
  };
  for (const role of ['admin', 'member'] as MemberRole[]) {
    const user = await findOrCreateUser(earshot.sql, { email: `${role}.${label}@example.com`, name: `${role} ${label}` });
    await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: user.id, role });
    people[role] = { id: user.id, session: await signIn(user.id, created.workspace.id) };
  }
  return { workspace: created.workspace, key: created.apiKey, owner: created.owner!, people };
}

const invite = (session: Session, email: string, role?: string) =>
  earshot.rest('POST', '/v1/members/invitations', { headers: as(session), body: { email, ...(role ? { role } : {}) } });

/** The token of the newest invitation mail to `to`, the `count`th one, as the invitee reads it in the text part. */
async function mailedToken(to: string, count = 1): Promise<string> {
  const mails = await eventually(async () => smtp.messages.filter((mail) => mail.envelope.to.includes(to)), (found) => found.length >= count);
  const mail = mails[count - 1];
  const link = /https:\/\/app\.example\S+/.exec(mail.text ?? '')?.[0];
  expect(link).toMatch(/^https:\/\/app\.example\/invitation\?token=[\w-]{43}$/);
  expect(mail.html).toContain(`href="${link}"`);
  return new URL(link!).searchParams.get('token')!;
}

const view = (token: string) => earshot.rest('GET', `/v1/invitation?token=${encodeURIComponent(token)}`);
const accept = (token: string, headers: Record<string, string> = {}) => earshot.rest('POST', '/v1/invitation/accept', { body: { token }, headers });
const decline = (token: string, headers: Record<string, string> = {}) => earshot.rest('POST', '/v1/invitation/decline', { body: { token }, headers });
const pending = async (key: string) => (await earshot.rest('GET', '/v1/members/invitations', { key })).body.data;

describe('invitations', () => {
  it('lives through send, mail, look, accept: the invitee is made, joins with the role, is signed in and listed among members', async () => {
    const a = await team('life');
    const sent = await invite(a.people.owner.session, ' New.Person@Example.com ', 'admin');
    expect(sent.status).toBe(201);
    const invitation = {
      id: expect.stringMatching(/^inv_[0-9a-z]{26}$/),
      email: 'new.person@example.com',
      role: 'admin',
      state: 'pending',
      invitedBy: { id: a.owner.id, name: 'owner.life', email: 'owner.life@example.com' },
      createdAt: '2030-04-01T09:00:00.000Z',
      expiresAt: '2030-04-08T09:00:00.000Z',
    };
    expect(sent.body).toEqual(invitation);
    expect(await pending(a.key)).toEqual([invitation]);

    const mail = (await eventually(async () => smtp.messages.filter((m) => m.envelope.to.includes('new.person@example.com')), (found) => found.length === 1))[0];
    expect(mail.subject).toBe('owner.life invited you to Team life on Earshot');
    // A transactional mail: no List-Unsubscribe.
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
    expect(mail.from).toBe('Earshot <team@earshot.example>');
    expect(mail.text).toContain('as an admin');
    const token = await mailedToken('new.person@example.com');
    expect(JSON.stringify(await earshot.sql`select * from invitations`)).not.toContain(token);

    const looked = await view(token);
    expect(looked.status).toBe(200);
    const received = {
      id: sent.body.id,
      workspace: { id: a.workspace.id, name: 'Team life' },
      email: 'new.person@example.com',
      role: 'admin',
      state: 'pending',
      invitedBy: { id: a.owner.id, name: 'owner.life', email: 'owner.life@example.com' },
      expiresAt: '2030-04-08T09:00:00.000Z',
    };
    expect(looked.body).toEqual(received);

    clock.advance(3_600_000);
    const accepted = await accept(token);
    expect(accepted.status).toBe(200);
    const newUser = { id: expect.stringMatching(/^usr_/), email: 'new.person@example.com', name: 'new.person' };
    expect(accepted.body).toEqual({ invitation: { ...received, state: 'accepted' }, user: newUser, workspaceId: a.workspace.id, expiresAt: timestamp });
    const cookies = accepted.headers.getSetCookie();
    expect(cookies[0]).toMatch(/^earshot_session=\w+; HttpOnly; Path=\/; SameSite=Lax; Expires=[^;]+; Secure$/);
    const whoami = await earshot.rest('GET', '/v1/whoami', { headers: { cookie: cookies[0].split(';')[0] } });
    expect(whoami.body).toMatchObject({ workspace: { id: a.workspace.id }, auth: { kind: 'session' }, user: newUser });
    // Signing out clears the cookies with the attributes that set them: Secure, as Earshot is on https.
    const csrf = cookies[1].split(';')[0].split('=')[1];
    const signedOut = await earshot.rest('POST', '/v1/auth/sign-out', { headers: { cookie: cookies.map((cookie) => cookie.split(';')[0]).join('; '), 'x-csrf-token': csrf } });
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers.getSetCookie()).toEqual([
      'earshot_session=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0; Secure',
      'earshot_csrf=; Path=/; SameSite=Lax; Max-Age=0; Secure',
    ]);

    const members = (await earshot.rest('GET', '/v1/members', { key: a.key })).body.data;
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner.life@example.com', 'owner'],
      ['admin.life@example.com', 'admin'],
      ['member.life@example.com', 'member'],
      ['new.person@example.com', 'admin'],
    ]);
    expect(await pending(a.key)).toEqual([]);

    // The link works once; afterwards it still shows what became of it, and answering again is 410 Gone.
    const again = await accept(token);
    expect(again.status).toBe(410);
    expect(again.body.error).toEqual({ code: 'invalid_token', message: 'This invitation was already accepted', requestId: again.headers.get('x-request-id') });
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(again.headers.get('www-authenticate')).toBeNull();
    const declinedLate = await decline(token);
    expect([declinedLate.status, declinedLate.body.error.code]).toEqual([410, 'invalid_token']);
    expect((await view(token)).body.state).toBe('accepted');
    // Inviting a member now is refused.
    const member = await invite(a.people.owner.session, 'NEW.PERSON@example.com');
    expect(member.status).toBe(409);
    expect(member.body.error).toMatchObject({ code: 'already_member', field: 'email' });
  });

  it('declines: nothing joins, the link stops working and shows the answer', async () => {
    const a = await team('decline');
    const sent = await invite(a.people.admin.session, 'nope@example.com');
    expect(sent.body).toMatchObject({ role: 'member', state: 'pending', invitedBy: { id: a.people.admin.id } });
    const token = await mailedToken('nope@example.com');
    const declined = await decline(token);
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ id: sent.body.id, state: 'declined', workspace: { name: 'Team decline' } });
    expect(declined.headers.getSetCookie()).toEqual([]);
    expect(await pending(a.key)).toEqual([]);
    expect((await earshot.rest('GET', '/v1/members', { key: a.key })).body.data).toHaveLength(3);
    // No longer open: 410 Gone, not the 401 of a link that names nothing.
    const late = await accept(token);
    expect(late.status).toBe(410);
    expect(late.body.error).toMatchObject({ code: 'invalid_token', message: 'This invitation was already declined' });
    expect((await decline(token)).status).toBe(410);
    // Answered invitations are history: not withdrawable.
    expect((await earshot.rest('DELETE', `/v1/members/invitations/${sent.body.id}`, { headers: as(a.people.owner.session) })).status).toBe(404);
    const users = await earshot.sql`select 1 from users where email = 'nope@example.com'`;
    expect(users).toHaveLength(0);
  });

  it('withdraws: 204, the link stops working, a second withdrawal is 404', async () => {
    const a = await team('withdraw');
    const sent = await invite(a.people.owner.session, 'maybe@example.com');
    const token = await mailedToken('maybe@example.com');
    const withdrawn = await earshot.rest('DELETE', `/v1/members/invitations/${sent.body.id}`, { headers: as(a.people.admin.session) });
    expect(withdrawn.status).toBe(204);
    expect(await pending(a.key)).toEqual([]);
    const looked = await view(token);
    expect(looked.status).toBe(401);
    expect(looked.body.error).toMatchObject({ code: 'invalid_token', message: 'This invitation link is unknown or was withdrawn' });
    expect((await accept(token)).status).toBe(401);
    const again = await earshot.rest('DELETE', `/v1/members/invitations/${sent.body.id}`, { headers: as(a.people.admin.session) });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
  });

  it('expires 7 days after sending, judged on read: not listed, shown expired, not acceptable, withdrawable and replaceable', async () => {
    const a = await team('expiry');
    const sent = await invite(a.people.owner.session, 'slow@example.com');
    const token = await mailedToken('slow@example.com');
    const other = await invite(a.people.owner.session, 'slower@example.com');
    clock.advance(7 * 86_400_000 - 1);
    expect((await pending(a.key)).map((i: { id: string }) => i.id).sort()).toEqual([sent.body.id, other.body.id].sort());
    expect((await view(token)).body.state).toBe('pending');
    clock.advance(1);
    expect(await pending(a.key)).toEqual([]);
    expect((await view(token)).body).toMatchObject({ state: 'expired', expiresAt: sent.body.expiresAt });
    const late = await accept(token);
    expect(late.status).toBe(410);
    expect(late.body.error).toMatchObject({ code: 'invalid_token', message: 'This invitation has expired; ask for a new one' });
    expect((await earshot.rest('GET', '/v1/members', { key: a.key })).body.data).toHaveLength(3);
    expect((await earshot.rest('DELETE', `/v1/members/invitations/${other.body.id}`, { headers: as(a.people.admin.session) })).status).toBe(204);
    // A new invitation to the address replaces the expired one.
    const renewed = await invite(a.people.owner.session, 'slow@example.com');
    expect(renewed.status).toBe(201);
    expect(renewed.body.id).not.toBe(sent.body.id);
    expect((await view(token)).status).toBe(401);
    expect((await accept(await mailedToken('slow@example.com', 2))).status).toBe(200);
  });

  it('replaces a pending invitation to the same address: one listed, the old link dead, the new one working', async () => {
    const a = await team('replace');
    const first = await invite(a.people.owner.session, 'twice@example.com', 'member');
    const firstToken = await mailedToken('twice@example.com');
    const second = await invite(a.people.admin.session, 'Twice@example.com', 'admin');
    expect(second.status).toBe(201);
    const secondToken = await mailedToken('twice@example.com', 2);
    expect((await pending(a.key)).map((i: { id: string; role: string }) => [i.id, i.role])).toEqual([[second.body.id, 'admin']]);
    expect((await view(firstToken)).status).toBe(401);
    expect((await earshot.rest('DELETE', `/v1/members/invitations/${first.body.id}`, { headers: as(a.people.owner.session) })).status).toBe(404);
    expect((await view(secondToken)).body).toMatchObject({ role: 'admin', state: 'pending' });
  });

  it('lets only signed-in owners and admins change invitations, and only owners touch the owner role', async () => {
    const a = await team('rules');
    const byKey = await earshot.rest('POST', '/v1/members/invitations', { key: a.key, body: { email: 'x@example.com' } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error).toEqual({ code: 'forbidden', message: expect.stringContaining('signed-in'), requestId: byKey.headers.get('x-request-id') });
    const byMember = await invite(a.people.member.session, 'x@example.com');
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('forbidden');
    const noCsrf = await earshot.rest('POST', '/v1/members/invitations', { headers: { cookie: a.people.owner.session.cookie }, body: { email: 'x@example.com' } });
    expect(noCsrf.status).toBe(403);
    const adminOwner = await invite(a.people.admin.session, 'boss@example.com', 'owner');
    expect(adminOwner.status).toBe(403);
    expect(adminOwner.body.error.code).toBe('forbidden');
    const badRole = await invite(a.people.owner.session, 'x@example.com', 'king');
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toMatchObject({ code: 'validation_error', field: 'role' });
    const badEmail = await invite(a.people.owner.session, 'not an address');
    expect(badEmail.body.error).toMatchObject({ code: 'validation_error', field: 'email' });
    expect(await pending(a.key)).toEqual([]);
    expect(smtp.messages.filter((m) => m.envelope.to.includes('x@example.com') || m.envelope.to.includes('boss@example.com'))).toEqual([]);

    const ownerInvite = await invite(a.people.owner.session, 'boss@example.com', 'owner');
    expect(ownerInvite.status).toBe(201);
    const protectedOwner = await earshot.rest('DELETE', `/v1/members/invitations/${ownerInvite.body.id}`, { headers: as(a.people.admin.session) });
    expect(protectedOwner.status).toBe(403);
    expect(protectedOwner.body.error.code).toBe('protected_user');
    expect((await invite(a.people.admin.session, 'boss@example.com', 'member')).body.error.code).toBe('protected_user');
    const keyWithdraw = await earshot.rest('DELETE', `/v1/members/invitations/${ownerInvite.body.id}`, { key: a.key });
    expect(keyWithdraw.status).toBe(403);
    expect(keyWithdraw.body.error.code).toBe('forbidden');
    const memberWithdraw = await earshot.rest('DELETE', `/v1/members/invitations/${ownerInvite.body.id}`, { headers: as(a.people.member.session) });
    expect(memberWithdraw.body.error.code).toBe('forbidden');
    // A key is refused whichever invitation it names, one of none included.
    expect((await earshot.rest('DELETE', '/v1/members/invitations/inv_00000000000000000000000000', { key: a.key })).status).toBe(403);
    expect((await earshot.rest('DELETE', `/v1/members/invitations/${ownerInvite.body.id}`, { headers: as(a.people.owner.session) })).status).toBe(204);
  });

  it('refuses an API key on every team change whatever the body (spec 5.8; the bodies are not in the spec)', async () => {
    const a = await team('key-any-body');
    const owner = (await earshot.rest('GET', '/v1/members', { key: a.key })).body.data.find((member: { role: string }) => member.role === 'owner');
    for (const [method, path, body] of [
      ['POST', '/v1/members/invitations', {}],
      ['POST', '/v1/members/invitations', { email: 'x@example.com', role: 'viewer' }],
      ['POST', '/v1/members/invitations', { emailAddress: 'x@example.com' }],
      ['PATCH', `/v1/members/${owner.id}`, { role: 'boss' }],
    ] as const) {
      const answer = await earshot.rest(method, path, { key: a.key, body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(403);
      expect(answer.body.error).toEqual({ code: 'forbidden', message: expect.stringContaining('not an API key'), requestId: answer.headers.get('x-request-id') });
    }
    // A signed-in owner sending the same bodies hears about the body.
    const bySession = await earshot.rest('POST', '/v1/members/invitations', { headers: as(a.people.owner.session), body: { email: 'x@example.com', role: 'viewer' } });
    expect(bySession.status).toBe(400);
    expect(bySession.body.error).toMatchObject({ code: 'validation_error', field: 'role' });
    expect(smtp.messages.filter((m) => m.envelope.to.includes('x@example.com'))).toEqual([]);
  });

  it("keeps invitations to their workspace: another workspace's ids are not found and its list is not shown", async () => {
    const a = await team('iso-a');
    const b = await team('iso-b');
    const sent = await invite(a.people.owner.session, 'iso@example.com');
    expect(await pending(b.key)).toEqual([]);
    const foreign = await earshot.rest('DELETE', `/v1/members/invitations/${sent.body.id}`, { headers: as(b.people.owner.session) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const byKey = await earshot.rest('DELETE', `/v1/members/invitations/${sent.body.id}`, { key: b.key });
    expect(byKey.status).toBe(403);
    expect((await pending(a.key)).map((i: { id: string }) => i.id)).toEqual([sent.body.id]);
    // A member of B is not a member of A: inviting them to A is fine.
    expect((await invite(a.people.owner.session, 'member.iso-b@example.com')).status).toBe(201);
  });

  it('lets a signed-in invitee accept with the same address and refuses a person signed in with another', async () => {
    const a = await team('signed-a');
    const b = await team('signed-b');
    await invite(a.people.owner.session, 'member.signed-b@example.com', 'admin');
    const token = await mailedToken('member.signed-b@example.com');

    const other = await accept(token, as(b.people.admin.session));
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('member.signed-b@example.com') });
    expect((await decline(token, as(b.people.admin.session))).status).toBe(403);
    expect((await view(token)).body.state).toBe('pending');

    const same = await accept(token, as(b.people.member.session));
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ user: { id: b.people.member.id }, workspaceId: a.workspace.id, invitation: { state: 'accepted' } });
    // The same person, now in both workspaces with a role in each.
    expect((await earshot.rest('GET', '/v1/members', { key: a.key })).body.data.find((m: { id: string }) => m.id === b.people.member.id)?.role).toBe('admin');
    expect((await earshot.rest('GET', '/v1/members', { key: b.key })).body.data.find((m: { id: string }) => m.id === b.people.member.id)?.role).toBe('member');
  });

  it('refuses an unknown token and answers the same through GraphQL', async () => {
    const unknown = await accept('x'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_token');
    expect((await view('nothing')).status).toBe(401);
    expect((await earshot.rest('GET', '/v1/invitation')).body.error).toMatchObject({ code: 'validation_error', field: 'token' });

    const a = await team('graphql');
    const listed = await earshot.graphql('{ invitations { id } }', {}, a.key);
    expect(listed.body).toEqual({ data: { invitations: [] } });
    const byKey = await earshot.graphql('mutation { inviteMember(input: { email: "g@example.com" }) { id } }', {}, a.key);
    expect(byKey.body.errors[0].extensions.code).toBe('forbidden');
    const viewed = await earshot.graphql('query { receivedInvitation(token: "nothing") { id } }');
    expect(viewed.body.errors[0].extensions.code).toBe('invalid_token');
  });
});

describe('invitations without e-mail', () => {
  it('are 501 email_not_configured, and nothing is stored', async () => {
    const plain = await startTestEarshot();
    try {
      const created = await provisionWorkspace(plain.sql, 'No mail', { ownerEmail: 'nomail@example.com' });
      const session = await insertSession(plain.sql, { userId: created.owner!.id, workspaceId: created.workspace.id });
      const refused = await plain.rest('POST', '/v1/members/invitations', {
        headers: { cookie: `earshot_session=${session.token}`, 'x-csrf-token': session.csrfToken },
        body: { email: 'friend@example.com' },
      });
      expect(refused.status).toBe(501);
      expect(refused.body.error.code).toBe('email_not_configured');
      expect((await plain.rest('GET', '/v1/members/invitations', { key: created.apiKey })).body.data).toEqual([]);
    } finally {
      await plain.stop();
    }
  });
});
