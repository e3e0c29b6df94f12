import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { expectOctolensError, expectOctolensShape, octolensBase, octolensFixture } from './octolens-shapes.ts';
import { sessionHeaders } from './people-seed.ts';

let smtp: FakeSmtp;
let earshot: TestEarshot;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  earshot = await startTestEarshot({ env: { EARSHOT_SMTP_URL: smtp.url, EARSHOT_MAIL_FROM: 'Earshot <team@earshot.example>', EARSHOT_PUBLIC_URL: 'https://app.example' } });
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

/** A workspace with its owner signed in to the dashboard, and its API key. */
async function ownedWorkspace(label: string) {
  const created = await provisionWorkspace(earshot.sql, `Team ${label}`, { ownerEmail: `owner.${label}@example.com` });
  return { key: created.apiKey, owner: await sessionHeaders(earshot, created.owner!.id, created.workspace.id) };
}

const compat = (method: string, route: string, credential: { key?: string; headers?: Record<string, string> }, body?: unknown) =>
  earshot.rest(method, `${octolensBase}${route}`, { ...credential, body });

describe('member invitations on the compatibility API', () => {
  it('invites as a signed-in owner in the recorded shape, mails the invitee, and lists the invitation to an API key', async () => {
    const team = await ownedWorkspace('invites');
    const fixture = octolensFixture('invite-member');
    const sent = await compat('POST', '/org/members/invite', { headers: team.owner }, fixture.request.body);
    expectOctolensShape(sent, 'invite-member');
    const invitation = { id: expect.stringMatching(/^inv_[0-9a-z]{26}$/), email: 'jsmith@example.com', role: 'member', createdAt: expect.stringMatching(/Z$/) };
    expect(sent.body).toEqual(invitation);
    await eventually(async () => smtp.messages.filter((mail) => mail.envelope.to.includes('jsmith@example.com')), (mails) => mails.length === 1);

    const admin = await compat('POST', '/org/members/invite', { headers: team.owner }, { email: ' Ada@Example.com ', role: 'admin' });
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ ...invitation, email: 'ada@example.com', role: 'admin' });

    const listed = await compat('GET', '/org/members/invitations', { key: team.key });
    expectOctolensShape(listed, 'list-invitations');
    expect(listed.body).toEqual({ data: [{ ...sent.body }, { ...admin.body }] });
    // The same invitations as the Earshot API lists them.
    const ours = await earshot.rest('GET', '/v1/members/invitations', { key: team.key });
    expect(ours.body.data.map((entry: { id: string }) => entry.id)).toEqual([sent.body.id, admin.body.id]);
  });

  it('refuses an API key 403 FORBIDDEN (team changes are a signed-in owner’s or admin’s) and sends nothing', async () => {
    const team = await ownedWorkspace('keyed');
    expectOctolensError(await compat('POST', '/org/members/invite', { key: team.key }, { email: 'nobody@example.com' }), 403, 'FORBIDDEN');
    expect((await compat('GET', '/org/members/invitations', { key: team.key })).body).toEqual({ data: [] });
    expect(smtp.messages.filter((mail) => mail.envelope.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('refuses bad bodies 400 VALIDATION_ERROR, a member’s address 409 ALREADY_MEMBER, and no credential 401 UNAUTHORIZED', async () => {
    const team = await ownedWorkspace('refusals');
    expectOctolensError(await compat('POST', '/org/members/invite', { headers: team.owner }, { email: 'someone@example.com', role: 'owner' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['role'], message: expect.any(String) }],
    });
    expectOctolensError(await compat('POST', '/org/members/invite', { headers: team.owner }, { email: 'not an address' }), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['email'], message: expect.any(String) }],
    });
    expectOctolensError(await compat('POST', '/org/members/invite', { headers: team.owner }, {}), 400, 'VALIDATION_ERROR', {
      details: [{ path: ['email'], message: expect.any(String) }],
    });
    expectOctolensError(await compat('POST', '/org/members/invite', { headers: team.owner }, { email: 'owner.refusals@example.com' }), 409, 'ALREADY_MEMBER');
    expectOctolensError(await compat('GET', '/org/members/invitations', {}), 401, 'UNAUTHORIZED');
    expectOctolensError(await compat('POST', '/org/members/invite', {}, { email: 'x@example.com' }), 401, 'UNAUTHORIZED');
  });
});
