import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { addMember, removeMember } from '../subgraphs/team/member-store.ts';
import { startTestEarshot, type TestEarshot, waitersOnLocks } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';

/** Triage of one mention and of many (spec 3.3, 4.3): status, assignee, snooze, note, verdicts. */

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let keywordId: string;
let ownerId: string;
let strangerId: string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await provisionWorkspace(earshot.sql, 'Triage', { ownerEmail: 'owner@triage.example' });
  key = created.apiKey;
  workspaceId = created.workspace.id;
  ownerId = created.owner!.id;
  strangerId = (await provisionWorkspace(earshot.sql, 'Elsewhere', { ownerEmail: 'stranger@elsewhere.example' })).owner!.id;
  keywordId = (await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', platforms: [] } })).body.id;
});
afterAll(() => earshot?.stop());

const scored = (count: number) =>
  seedMentions(earshot.sql, workspaceId, Array.from({ length: count }, () => ({ keywordId, score: { relevance: 80, sentiment: 'positive' as const } })));
const listedIds = async (query = '') => (await earshot.rest('GET', `/v1/mentions?limit=100${query}`, { key })).body.data.map((m: { id: string }) => m.id);
const error = (code: string, field?: string) => ({ error: { code, message: expect.any(String), requestId: expect.any(String), ...(field ? { field } : {}) } });

describe('PATCH /v1/mentions/{id}', () => {
  it('assigns to a member, unassigns with null, and refuses anyone else as invalid_assignee', async () => {
    const [id] = await scored(1);
    const assigned = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { assigneeId: ownerId } });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ id, status: 'open', triage: { assignee: ownerId, snoozedUntil: null, note: null } });
    expect(await listedIds(`&assigneeId=${ownerId}`)).toContain(id);

    for (const assigneeId of [strangerId, 'usr_nobody']) {
      const refused = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { assigneeId, status: 'done' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(error('invalid_assignee', 'assigneeId'));
    }
    // Nothing of a refused change is kept.
    expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body).toMatchObject({ status: 'open', triage: { assignee: ownerId } });

    const unassigned = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { assigneeId: null } });
    expect(unassigned.body.triage.assignee).toBeNull();
  });

  it('leaves mentions unassigned when their assignee leaves the workspace', async () => {
    const leaver = await provisionWorkspace(earshot.sql, 'Leaver home', { ownerEmail: 'leaver@triage.example' });
    await earshot.sql`insert into workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${leaver.owner!.id}, 'member')`;
    const [id] = await scored(1);
    expect((await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { assigneeId: leaver.owner!.id } })).status).toBe(200);
    await earshot.sql`delete from workspace_members where workspace_id = ${workspaceId} and user_id = ${leaver.owner!.id}`;
    expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.triage.assignee).toBeNull();
  });

  // Found by a parallel probe: a bulk change assigning mentions to a member, one of them assigned to that member
  // already, held the mentions and waited for the member, whose removal held the member while waiting to unassign
  // that mention (deadlock, 500).
  it('answers a bulk assignment to a member removed at the same time, the member removed and the mentions unassigned', async () => {
    const leaver = await provisionWorkspace(earshot.sql, 'Raced leaver home', { ownerEmail: 'raced-leaver@triage.example' });
    await addMember(earshot.sql, { workspaceId, userId: leaver.owner!.id, role: 'member' });
    const ids = await scored(2);
    expect((await earshot.rest('PATCH', `/v1/mentions/${ids[0]}`, { key, body: { assigneeId: leaver.owner!.id } })).status).toBe(200);
    const { patch, removal } = await earshot.sql.begin(async (tx) => {
      await tx`select id from mentions where id = any(${ids}) for update`;
      const patch = earshot.rest('POST', '/v1/mentions/bulk', { key, body: { ids, changes: { assigneeId: leaver.owner!.id } } });
      await waitersOnLocks(earshot.sql, 1);
      const removal = removeMember(earshot.sql, { workspaceId, actorUserId: ownerId, memberId: leaver.owner!.id }).then(
        () => 'removed',
        (failure: Error) => failure.message,
      );
      await Promise.race([removal, waitersOnLocks(earshot.sql, 2)]);
      return { patch, removal };
    });
    expect(await removal).toBe('removed');
    const patched = await patch;
    if (patched.status !== 200) expect(patched.body).toMatchObject({ error: { code: 'invalid_assignee' } });
    for (const id of ids) expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body.triage.assignee).toBeNull();
  });

  it('snoozes a mention out of the list until it wakes, and keeps a note', async () => {
    const [id] = await scored(1);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { snoozedUntil: until, note: 'Answer after the launch' } });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.triage).toEqual({ assignee: null, snoozedUntil: until, note: 'Answer after the launch' });
    expect(await listedIds()).not.toContain(id);
    expect(await listedIds('&snoozed=true')).toContain(id);

    const past = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { snoozedUntil: '2020-01-01T00:00:00+02:00' } });
    expect(past.body.triage.snoozedUntil).toBe('2019-12-31T22:00:00.000Z');
    expect(await listedIds()).toContain(id);

    const cleared = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body: { snoozedUntil: null, note: null } });
    expect(cleared.body.triage).toEqual({ assignee: null, snoozedUntil: null, note: null });

    const cases: [Record<string, unknown>, string][] = [
      [{ snoozedUntil: 'tomorrow' }, 'snoozedUntil'],
      // Instants JavaScript reads and PostgreSQL cannot store: year 0, and past 9999-12-31 by the offset.
      [{ snoozedUntil: '0000-01-01T00:00:00Z' }, 'snoozedUntil'],
      [{ snoozedUntil: '9999-12-31T23:59:59-01:00' }, 'snoozedUntil'],
      [{ note: 'x'.repeat(2001) }, 'note'],
      [{ note: 5 }, 'note'],
      [{ status: 'archived' }, 'status'],
      [{ assigneeId: '' }, 'assigneeId'],
    ];
    for (const [body, field] of cases) {
      const refused = await earshot.rest('PATCH', `/v1/mentions/${id}`, { key, body });
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.body).toEqual(error('validation_error', field));
    }
  });
});

describe('POST /v1/mentions/bulk and the updateMentions mutation', () => {
  it('applies one change to every mention named and answers them in the order given', async () => {
    const ids = await scored(3);
    const order = [ids[2], ids[0], ids[1], ids[0]];
    const done = await earshot.rest('POST', '/v1/mentions/bulk', { key, body: { ids: order, changes: { status: 'done', assigneeId: ownerId, relevant: false } } });
    expect(done.status).toBe(200);
    expect(done.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[0], ids[1]]);
    for (const mention of done.body.data) {
      expect(mention).toMatchObject({ status: 'done', relevant: false, triage: { assignee: ownerId }, classification: { feedback: { relevant: false } } });
    }

    const graphql = await earshot.graphql(
      'mutation ($ids: [ID!]!, $changes: MentionPatchInput!) { updateMentions(ids: $ids, changes: $changes) { id status triage { note } } }',
      { ids, changes: { status: 'open', note: 'reopened' } },
      key,
    );
    expect(graphql.body).toEqual({ data: { updateMentions: ids.map((id) => ({ id, status: 'open', triage: { note: 'reopened' } })) } });
  });

  it('changes nothing when one id is bad, and names it', async () => {
    const ids = await scored(3);
    const [unscored] = await seedMentions(earshot.sql, workspaceId, [{ keywordId }]);
    const other = await earshot.createWorkspace('Other');
    const otherKeyword = (await earshot.rest('POST', '/v1/keywords', { key: other.apiKey, body: { term: 'Acme', platforms: [] } })).body.id;
    const [foreign] = await seedMentions(earshot.sql, other.workspace.id, [{ keywordId: otherKeyword }]);

    const cases: [Record<string, unknown>, number, object][] = [
      [{ ids: [ids[0], ids[1], foreign], changes: { status: 'done' } }, 404, error('not_found', 'ids.2')],
      [{ ids: ['mm_nothing', ids[0]], changes: { status: 'done' } }, 404, error('not_found', 'ids.0')],
      [{ ids: [ids[0], unscored, ids[1]], changes: { status: 'done', sentiment: 'negative' } }, 409, error('classification_pending', 'ids.1')],
      [{ ids, changes: { status: 'done', assigneeId: strangerId } }, 400, error('invalid_assignee', 'assigneeId')],
      [{ ids: Array.from({ length: 501 }, (_, i) => `mm_${i}`), changes: { status: 'done' } }, 400, error('validation_error', 'ids')],
      [{ ids: [], changes: { status: 'done' } }, 400, error('validation_error', 'ids')],
      [{ ids, changes: { status: 'closed' } }, 400, error('validation_error', 'changes.status')],
      [{ ids }, 400, error('validation_error', 'changes')],
    ];
    for (const [body, status, expected] of cases) {
      const answer = await earshot.rest('POST', '/v1/mentions/bulk', { key, body });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.body, JSON.stringify(body).slice(0, 80)).toEqual(expected);
      expect(answer.body.error.message).toContain(status === 404 || status === 409 ? (expected as any).error.field : '');
    }
    for (const id of [...ids, unscored]) {
      expect((await earshot.rest('GET', `/v1/mentions/${id}`, { key })).body).toMatchObject({ status: 'open', triage: { assignee: null } });
    }
    expect((await earshot.rest('GET', `/v1/mentions/${foreign}`, { key: other.apiKey })).body.status).toBe('open');
  });

  it('is refused to a read-only key', async () => {
    const [id] = await scored(1);
    const readKey = (await earshot.rest('POST', '/v1/api-keys', { key, body: { name: 'reader', scope: 'read' } })).body.key;
    const refused = await earshot.rest('POST', '/v1/mentions/bulk', { key: readKey, body: { ids: [id], changes: { status: 'done' } } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(error('read_only_key'));
  });
});
