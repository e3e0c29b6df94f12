import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { account, classify, personOf, postBy, seedWorkspace, type SeededWorkspace, storePosts } from './people-seed.ts';

let earshot: TestEarshot;
let w: SeededWorkspace;
/** The people of the workspace by name, each seen after the one before. */
const people: Record<'ada' | 'bot' | 'carol' | 'dan' | 'eve', string> = { ada: '', bot: '', carol: '', dan: '', eve: '' };

beforeAll(async () => {
  earshot = await startTestEarshot();
  w = await seedWorkspace(earshot, 'list');
  const seed = async (name: keyof typeof people, author: ReturnType<typeof account>, automated: (boolean | null)[]) => {
    const ids = await storePosts(earshot, w, automated.map((_, n) => postBy(author, `Acme post ${n}`)));
    for (const [n, flag] of automated.entries()) if (flag !== null) await classify(earshot, ids[n], { automated: flag });
    people[name] = await personOf(earshot, w.key, ids[0]);
  };
  await seed('ada', account('github', 'ada_l', { name: 'Ada Lovelace', links: ['https://ada.dev'] }), [false]);
  await seed('bot', account('x', 'botty', { name: 'Bot McBot' }), [true, true, true, false]);
  await seed('carol', account('devto', 'carol_c', { name: 'Carol', links: ['https://blog.carol.substack.com/'] }), [false]);
  await seed('dan', account('reddit', 'dan_r', { name: 'Dan' }), [true, false]);
  await seed('eve', account('hackernews', 'eve', { name: 'Eve', links: ['https://www.eve.io/about'] }), [null]);
  const patch = (id: string, body: object) => earshot.rest('PATCH', `/v1/people/${id}`, { key: w.key, body });
  await patch(people.ada, { ownerId: w.ownerId, stage: 'contacted' });
  await patch(people.carol, { ownerId: w.memberId, stage: 'customer' });
});
afterAll(() => earshot?.stop());

const names = (ids: string[]) => ids.map((id) => Object.entries(people).find(([, personId]) => personId === id)?.[0] ?? id);
const listed = async (query: string) => {
  const answer = await earshot.rest('GET', `/v1/people${query}`, { key: w.key });
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return names(answer.body.data.map((person: { id: string }) => person.id));
};

describe('GET /v1/people filters', () => {
  it.each([
    ['', ['eve', 'dan', 'carol', 'bot', 'ada']],
    ['?linkHosts=ada.dev', ['ada']],
    ['?linkHosts=substack.com', ['carol']],
    ['?linkHosts=WWW.eve.io', ['eve']],
    ['?linkHosts=ada.dev,eve.io', ['eve', 'ada']],
    ['?linkHosts=github.com', []],
    ['?stages=contacted', ['ada']],
    ['?stages=customer,contacted', ['carol', 'ada']],
    ['?stages=customer&stages=contacted', ['carol', 'ada']],
    ['?linkHosts=ada.dev&linkHosts=eve.io', ['eve', 'ada']],
    ['?stages=not_contacted', ['eve', 'dan', 'bot']],
    ['?ownerIds=OWNER', ['ada']],
    ['?ownerIds=none', ['eve', 'dan', 'bot']],
    ['?ownerIds=MEMBER,none', ['eve', 'dan', 'carol', 'bot']],
    ['?ownerIds=MEMBER&ownerIds=none', ['eve', 'dan', 'carol', 'bot']],
    ['?automated=true', ['bot']],
    ['?automated=false', ['eve', 'dan', 'carol', 'ada']],
    ['?q=lovelace', ['ada']],
    ['?q=%40botty', ['bot']],
    ['?q=CAROL', ['carol']],
    ['?q=nobody', []],
    ['?ownerIds=none&automated=false', ['eve', 'dan']],
    ['?stages=not_contacted&linkHosts=eve.io&q=ev', ['eve']],
  ])('%s', async (query, expected) => {
    expect(await listed(query.replace('OWNER', w.ownerId).replace('MEMBER', w.memberId))).toEqual(expected);
  });

  it('pages with cursors, newest first, and the same filters through GraphQL', async () => {
    const first = await earshot.rest('GET', '/v1/people?limit=2', { key: w.key });
    expect(names(first.body.data.map((p: { id: string }) => p.id))).toEqual(['eve', 'dan']);
    const second = await earshot.rest('GET', `/v1/people?limit=2&cursor=${first.body.nextCursor}`, { key: w.key });
    expect(names(second.body.data.map((p: { id: string }) => p.id))).toEqual(['carol', 'bot']);
    const third = await earshot.rest('GET', `/v1/people?limit=2&cursor=${second.body.nextCursor}`, { key: w.key });
    expect({ people: names(third.body.data.map((p: { id: string }) => p.id)), nextCursor: third.body.nextCursor }).toEqual({ people: ['ada'], nextCursor: null });

    const viaGraphQL = await earshot.graphql(
      `query($filter: PeopleFilterInput) { people(filter: $filter) { nodes { id automated outreach { owner stage } } nextCursor } }`,
      { filter: { ownerIds: ['none'], automated: true, stages: null } },
      w.key,
    );
    expect(viaGraphQL.body.data.people).toEqual({ nodes: [{ id: people.bot, automated: true, outreach: { owner: null, stage: 'not_contacted' } }], nextCursor: null });
  });

  it('pages through people first seen in one statement, who share their first-seen time to the microsecond', async () => {
    const batch = await seedWorkspace(earshot, 'batch');
    const authors = ['fay', 'gus', 'hal', 'ivy', 'jo'].map((handle) => account('reddit', handle));
    await storePosts(earshot, batch, authors.map((author) => postBy(author)));
    const everyone = await earshot.rest('GET', '/v1/people', { key: batch.key });
    expect(everyone.body.data).toHaveLength(5);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; nextCursor: string | null } } = await earshot.rest('GET', `/v1/people?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: batch.key });
      paged.push(...page.body.data.map((person) => person.id));
      cursor = page.body.nextCursor;
    } while (cursor !== null && paged.length < 10);
    expect(paged).toEqual(everyone.body.data.map((person: { id: string }) => person.id));
  });

  it.each([
    ['a day that does not exist', '2026-02-30T00:00:00.000000Z', '2026-02-30T00:00:00.000Z'],
    ['a year PostgreSQL cannot read', '-100000-01-01T00:00:00.000000Z', '-100000-01-01T00:00:00.000Z'],
    ['a time in another form', '2026-01-01T00:00:00.000Z', '2026-01-01'],
  ])('answers invalid_cursor, not 500, for a cursor holding %s, on the people and their activities', async (_case, personTime, activityTime) => {
    const cursor = (key: string) => Buffer.from(key).toString('base64url');
    const listedPeople = await earshot.rest('GET', `/v1/people?cursor=${cursor(`${personTime}|per_x`)}`, { key: w.key });
    const activities = await earshot.rest('GET', `/v1/people/${people.ada}/activities?cursor=${cursor(`${activityTime}|act_x`)}`, { key: w.key });
    expect([listedPeople, activities].map((answer) => [answer.status, answer.body.error?.code])).toEqual([
      [400, 'invalid_cursor'],
      [400, 'invalid_cursor'],
    ]);
  });

  it('names the bad parameter: 400 validation_error, invalid_cursor, or filter_too_complex past 50 values', async () => {
    const expectError = async (query: string, error: object) => {
      const answer = await earshot.rest('GET', `/v1/people${query}`, { key: w.key });
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error: { ...error, requestId: answer.headers.get('x-request-id') } });
    };
    await expectError('?stages=contacted,won', { code: 'validation_error', field: 'stages.1', message: 'stages.1: must be one of not_contacted, contacted, replied, in_talks, customer, not_a_fit' });
    await expectError('?automated=maybe', { code: 'validation_error', field: 'automated', message: 'automated: must be one of true, false' });
    await expectError('?linkHosts=not%20a%20host', { code: 'validation_error', field: 'linkHosts.0', message: 'linkHosts.0: must be a host name such as github.com' });
    await expectError('?cursor=bm9wZQ', { code: 'invalid_cursor', field: 'cursor', message: 'The cursor is not one this API returned' });
    const many = Array.from({ length: 51 }, (_, n) => `usr_${n}`).join(',');
    await expectError(`?ownerIds=${many}`, { code: 'filter_too_complex', message: 'The filter holds 51 values; at most 50 in all its lists together' });
  });
});

describe('segments', () => {
  it('saves a people filter under a name, lists its people with segmentId beside other filters, and renames and replaces it', async () => {
    const created = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Unowned humans', filter: { ownerIds: ['none'], automated: false, linkHosts: ['WWW.Eve.io'] } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^seg_[0-9a-z]{26}$/),
      name: 'Unowned humans',
      filter: { ownerIds: ['none'], automated: false, linkHosts: ['eve.io'] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect(await listed(`?segmentId=${id}`)).toEqual(['eve']);
    expect(await listed(`?segmentId=${id}&stages=contacted`)).toEqual([]);

    const renamed = await earshot.rest('PATCH', `/v1/segments/${id}`, { key: w.key, body: { name: 'Unowned', filter: { ownerIds: ['none'] } } });
    expect(renamed.body).toMatchObject({ id, name: 'Unowned', filter: { ownerIds: ['none'] } });
    expect(await listed(`?segmentId=${id}`)).toEqual(['eve', 'dan', 'bot']);
    expect(await listed(`?segmentId=${id}&automated=true`)).toEqual(['bot']);

    expect((await earshot.rest('GET', `/v1/segments/${id}`, { key: w.key })).body).toEqual(renamed.body);
    const all = await earshot.rest('GET', '/v1/segments', { key: w.key });
    expect(all.body.data.map((segment: { id: string }) => segment.id)).toContain(id);

    const removed = await earshot.rest('DELETE', `/v1/segments/${id}`, { key: w.key });
    expect(removed.status).toBe(204);
    const gone = await earshot.rest('GET', `/v1/people?segmentId=${id}`, { key: w.key });
    expect({ status: gone.status, code: gone.body.error.code, message: gone.body.error.message }).toEqual({ status: 404, code: 'not_found', message: 'Segment not found' });
  });

  it('refuses a name another segment has in any case (409 duplicate_segment) and a filter past 50 values (400 filter_too_complex)', async () => {
    await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Customers', filter: { stages: ['customer'] } } });
    const clash = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: '  cUSTOMERS ' } });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ error: { code: 'duplicate_segment', message: 'A segment named "cUSTOMERS" already exists', field: 'name', requestId: clash.headers.get('x-request-id') } });

    const other = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Prospects' } });
    expect(other.body.filter).toEqual({});
    const renameClash = await earshot.rest('PATCH', `/v1/segments/${other.body.id}`, { key: w.key, body: { name: 'customers' } });
    expect({ status: renameClash.status, code: renameClash.body.error.code }).toEqual({ status: 409, code: 'duplicate_segment' });

    const hosts = Array.from({ length: 30 }, (_, n) => `h${n}.example`);
    const ownerIds = Array.from({ length: 21 }, (_, n) => `usr_${n}`);
    const tooComplex = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Huge', filter: { linkHosts: hosts, ownerIds } } });
    expect(tooComplex.status).toBe(400);
    expect(tooComplex.body.error).toEqual({
      code: 'filter_too_complex',
      message: 'The filter holds 51 values; at most 50 in all its lists together',
      requestId: tooComplex.headers.get('x-request-id'),
    });
    // Its owners must be members, so the 50 values are mostly hosts.
    const fitting = { linkHosts: Array.from({ length: 47 }, (_, n) => `h${n}.example`), ownerIds: [w.ownerId, w.memberId, 'none'] };
    const fits = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Large', filter: fitting } });
    expect(fits.status).toBe(201);
    const badStage = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Bad', filter: { stages: ['won'] } } });
    expect(badStage.body.error).toMatchObject({ code: 'validation_error', field: 'filter.stages.0' });
  });

  it('refuses an owner who is no member of the workspace (400 invalid_member naming the item), on create and on PATCH', async () => {
    const other = await seedWorkspace(earshot, 'list-stranger');
    for (const stranger of [other.ownerId, 'usr_nobody']) {
      const refused = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Theirs', filter: { ownerIds: ['none', w.memberId, stranger] } } });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { error: { code: 'invalid_member', message: 'filter.ownerIds.2: not a member of this workspace', field: 'filter.ownerIds.2', requestId: refused.headers.get('x-request-id') } },
      });
    }
    const mine = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Ours', filter: { ownerIds: [w.memberId, 'none'] } } });
    expect(mine.status).toBe(201);
    const patched = await earshot.rest('PATCH', `/v1/segments/${mine.body.id}`, { key: w.key, body: { filter: { ownerIds: [other.memberId] } } });
    expect({ status: patched.status, code: patched.body.error?.code, field: patched.body.error?.field }).toEqual({ status: 400, code: 'invalid_member', field: 'filter.ownerIds.0' });
    expect((await earshot.rest('GET', `/v1/segments/${mine.body.id}`, { key: w.key })).body.filter).toEqual({ ownerIds: [w.memberId, 'none'] });
  });

  it('takes a null filter as no filter, as a saved view does: everyone, and a PATCH with it clears the filter', async () => {
    const created = await earshot.rest('POST', '/v1/segments', { key: w.key, body: { name: 'Everyone', filter: null } });
    expect({ status: created.status, filter: created.body.filter }).toEqual({ status: 201, filter: {} });
    const narrowed = await earshot.rest('PATCH', `/v1/segments/${created.body.id}`, { key: w.key, body: { filter: { automated: true } } });
    expect(narrowed.body.filter).toEqual({ automated: true });
    const cleared = await earshot.rest('PATCH', `/v1/segments/${created.body.id}`, { key: w.key, body: { filter: null } });
    expect({ status: cleared.status, filter: cleared.body.filter }).toEqual({ status: 200, filter: {} });
    expect(await listed(`?segmentId=${created.body.id}`)).toEqual(await listed(''));
  });

  it('keeps segments to their workspace, and answers GraphQL the same', async () => {
    const other = await seedWorkspace(earshot, 'list-other');
    const theirs = await earshot.rest('POST', '/v1/segments', { key: other.key, body: { name: 'Customers', filter: { stages: ['customer'] } } });
    expect(theirs.status).toBe(201);
    for (const [method, path] of [['GET', `/v1/segments/${theirs.body.id}`], ['PATCH', `/v1/segments/${theirs.body.id}`], ['DELETE', `/v1/segments/${theirs.body.id}`], ['GET', `/v1/people?segmentId=${theirs.body.id}`]] as const) {
      const answer = await earshot.rest(method, path, { key: w.key, body: method === 'PATCH' ? { name: 'x' } : undefined });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    const created = await earshot.graphql(`mutation { createSegment(input: { name: "Bots", filter: { automated: true } }) { id name filter { automated stages } } }`, {}, w.key);
    expect(created.body.data.createSegment).toEqual({ id: expect.stringMatching(/^seg_/), name: 'Bots', filter: { automated: true, stages: null } });
    const page = await earshot.graphql(`query($id: ID!) { people(segmentId: $id) { nodes { id } } }`, { id: created.body.data.createSegment.id }, w.key);
    expect(page.body.data.people.nodes).toEqual([{ id: people.bot }]);
    const duplicate = await earshot.graphql(`mutation { createSegment(input: { name: "bots" }) { id } }`, {}, w.key);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'duplicate_segment', field: 'name' });
  });
});

describe('muted people', () => {
  it('are left out of what an alert rule sends (its feed), like a muted author, and come back when unmuted', async () => {
    const [ada] = await storePosts(earshot, w, [postBy(account('github', 'ada_l', { name: 'Ada Lovelace' }), 'Acme rocks')]);
    await classify(earshot, ada, { relevance: 95 });
    const rule = await earshot.rest('POST', '/v1/alerts', { key: w.key, body: { name: 'Everything', event: 'mention.matched' } });
    const feed = async () => (await earshot.rest('GET', `/v1/mentions?alertId=${rule.body.id}`, { key: w.key })).body.data.map((m: { id: string }) => m.id);
    expect(await feed()).toContain(ada);
    await earshot.rest('PATCH', `/v1/people/${people.ada}`, { key: w.key, body: { muted: true } });
    expect(await feed()).not.toContain(ada);
    await earshot.rest('PATCH', `/v1/people/${people.ada}`, { key: w.key, body: { muted: false } });
    expect(await feed()).toContain(ada);
  });
});
