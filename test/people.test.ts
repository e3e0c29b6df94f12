import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { account, classify, personOf, postBy, seedWorkspace, type SeededWorkspace, sessionHeaders, storePosts } from './people-seed.ts';

let earshot: TestEarshot;
let a: SeededWorkspace;

beforeAll(async () => {
  earshot = await startTestEarshot();
  a = await seedWorkspace(earshot, 'a');
});
afterAll(() => earshot?.stop());

const isoTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const personId = expect.stringMatching(/^per_[0-9a-z]{26}$/);

const getPerson = (key: string, id: string) => earshot.rest('GET', `/v1/people/${id}`, { key });
const accountIds = async (key: string, id: string) => (await getPerson(key, id)).body.accounts.map((acc: { handle: string; platform: string }) => `${acc.platform}:${acc.handle}`).sort();

describe('people: one per account, merged on verified links', () => {
  it('makes a new author a person of its own and shows it whole', async () => {
    const ada = account('github', 'ada-whole', { links: ['https://ada-whole.dev/'], followers: 42, name: 'Ada Whole' });
    const [first, second] = await storePosts(earshot, a, [postBy(ada, 'Acme is great', new Date('2026-05-01T10:00:00Z')), postBy(ada, 'Acme again', new Date('2026-05-02T10:00:00Z'))]);
    await classify(earshot, first, { relevance: 90 });
    await classify(earshot, second, { relevance: 10 });
    const id = await personOf(earshot, a.key, first);
    expect(await personOf(earshot, a.key, second)).toBe(id);

    const shown = await getPerson(a.key, id);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      id,
      name: 'Ada Whole',
      handle: 'ada-whole',
      avatarUrl: null,
      links: ['https://ada-whole.dev/'],
      tags: [],
      automated: false,
      muted: false,
      createdAt: isoTime,
      accounts: [
        {
          id: expect.stringMatching(/^aut_/),
          platform: 'github',
          name: 'Ada Whole',
          handle: 'ada-whole',
          url: 'https://github.com/ada-whole',
          avatarUrl: null,
          followers: 42,
          tags: [],
          links: ['https://ada-whole.dev/'],
          mentions: 2,
          splitByHand: false,
        },
      ],
      mentions: { total: 2, relevant: 1 },
      lastMention: {
        id: second,
        post: { platform: 'github', url: expect.stringContaining('https://github.example/ada-whole/posts/'), publishedAt: '2026-05-02T10:00:00.000Z' },
        keyword: { id: a.keywordId, term: 'Acme' },
      },
      outreach: { owner: null, stage: 'not_contacted', lastContactAt: null },
    });
  });

  it('merges a profile that links to another platform’s profile (a dev.to account naming its GitHub) into one person', async () => {
    const [onGithub] = await storePosts(earshot, a, [postBy(account('github', 'grace-h'))]);
    const [onDevto] = await storePosts(earshot, a, [postBy(account('devto', 'gracehopper', { links: ['https://GitHub.com/Grace-H/'] }))]);
    const id = await personOf(earshot, a.key, onDevto);
    expect(await personOf(earshot, a.key, onGithub)).toBe(id);
    expect(await accountIds(a.key, id)).toEqual(['devto:gracehopper', 'github:grace-h']);
  });

  it('merges accounts whose profiles link the same personal site, written differently, and a Bluesky handle on that domain', async () => {
    const [onX] = await storePosts(earshot, a, [postBy(account('x', 'linus_site', { links: ['http://www.linus.example/?utm_source=x'] }))]);
    const [onBluesky] = await storePosts(earshot, a, [postBy(account('bluesky', 'linus.example', { links: ['https://linus.example'] }))]);
    const [onReddit] = await storePosts(earshot, a, [postBy(account('reddit', 'linus_r', { links: ['https://linus.example/'] }))]);
    const id = await personOf(earshot, a.key, onX);
    expect(await personOf(earshot, a.key, onBluesky)).toBe(id);
    expect(await personOf(earshot, a.key, onReddit)).toBe(id);
    expect(await accountIds(a.key, id)).toEqual(['bluesky:linus.example', 'reddit:linus_r', 'x:linus_site']);
  });

  it('does not merge on a site two accounts of one platform link (a company’s, not a person’s), nor on a bare platform address', async () => {
    const [first] = await storePosts(earshot, a, [postBy(account('x', 'acme_dev1', { links: ['https://acmecorp.example'] }))]);
    const [second] = await storePosts(earshot, a, [postBy(account('x', 'acme_dev2', { links: ['https://acmecorp.example'] }))]);
    const [third] = await storePosts(earshot, a, [postBy(account('devto', 'acme_dev3', { links: ['https://acmecorp.example', 'https://github.com/'] }))]);
    const [fourth] = await storePosts(earshot, a, [postBy(account('reddit', 'acme_dev4', { links: ['https://github.com'] }))]);
    const people = new Set(await Promise.all([first, second, third, fourth].map((id) => personOf(earshot, a.key, id))));
    expect(people.size).toBe(4);
  });

  it('keeps the profile links an author had when a later sighting does not say, and links new ones as they come', async () => {
    const site = account('x', 'kept_links', { links: ['https://kept-links.example'] });
    const [firstId] = await storePosts(earshot, a, [postBy(site)]);
    await storePosts(earshot, a, [postBy(account('x', 'kept_links'))]);
    const [later] = await storePosts(earshot, a, [postBy(account('devto', 'kept-links', { links: ['https://kept-links.example'] }))]);
    expect(await personOf(earshot, a.key, later)).toBe(await personOf(earshot, a.key, firstId));
  });
});

describe('people: merge and split by hand', () => {
  it('merges one person into another (accounts, activities, the owner where the survivor has none), and the merged id answers 404', async () => {
    const [one] = await storePosts(earshot, a, [postBy(account('hackernews', 'merge_one'))]);
    const [two] = await storePosts(earshot, a, [postBy(account('reddit', 'merge_two'))]);
    const [into, from] = [await personOf(earshot, a.key, one), await personOf(earshot, a.key, two)];
    await earshot.rest('PATCH', `/v1/people/${from}`, { key: a.key, body: { ownerId: a.memberId, stage: 'replied' } });
    const logged = await earshot.rest('POST', `/v1/people/${from}/activities`, { key: a.key, body: { channel: 'email', note: 'Wrote to them' } });
    expect(logged.status).toBe(201);

    const merged = await earshot.rest('POST', `/v1/people/${into}/merge`, { key: a.key, body: { personId: from } });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(into);
    expect(merged.body.accounts.map((acc: { handle: string }) => acc.handle).sort()).toEqual(['merge_one', 'merge_two']);
    expect(merged.body.outreach).toEqual({ owner: a.memberId, stage: 'replied', lastContactAt: isoTime });
    expect(merged.body.mentions).toEqual({ total: 2, relevant: 0 });
    const activities = await earshot.rest('GET', `/v1/people/${into}/activities`, { key: a.key });
    expect(activities.body.data.map((activity: { id: string }) => activity.id)).toEqual([logged.body.id]);
    expect(await personOf(earshot, a.key, two)).toBe(into);

    const gone = await getPerson(a.key, from);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'not_found', message: 'Person not found', requestId: gone.headers.get('x-request-id') } });
  });

  it('keeps the survivor’s own owner and stage on a merge', async () => {
    const [one] = await storePosts(earshot, a, [postBy(account('hackernews', 'keep_one'))]);
    const [two] = await storePosts(earshot, a, [postBy(account('hackernews', 'keep_two'))]);
    const [into, from] = [await personOf(earshot, a.key, one), await personOf(earshot, a.key, two)];
    await earshot.rest('PATCH', `/v1/people/${into}`, { key: a.key, body: { ownerId: a.ownerId, stage: 'in_talks' } });
    await earshot.rest('PATCH', `/v1/people/${from}`, { key: a.key, body: { ownerId: a.memberId, stage: 'customer', muted: true } });
    const merged = await earshot.rest('POST', `/v1/people/${into}/merge`, { key: a.key, body: { personId: from } });
    expect(merged.body.outreach).toEqual({ owner: a.ownerId, stage: 'in_talks', lastContactAt: null });
    expect(merged.body.muted).toBe(true);
  });

  it('refuses merging a person into itself or a person that does not exist', async () => {
    const [one] = await storePosts(earshot, a, [postBy(account('hackernews', 'self_merge'))]);
    const id = await personOf(earshot, a.key, one);
    const itself = await earshot.rest('POST', `/v1/people/${id}/merge`, { key: a.key, body: { personId: id } });
    expect(itself.status).toBe(400);
    expect(itself.body.error).toMatchObject({ code: 'validation_error', message: 'personId: a person cannot be merged into itself' });
    const missing = await earshot.rest('POST', `/v1/people/${id}/merge`, { key: a.key, body: { personId: 'per_00000000000000000000000000' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', message: 'personId: no such person in this workspace' });
  });

  it('splits an account out into a new person, takes the activities naming it along, and automatic merging leaves it there', async () => {
    const site = 'https://split-me.example';
    const [github] = await storePosts(earshot, a, [postBy(account('github', 'split_gh', { links: [site] }))]);
    const [xAccount] = await storePosts(earshot, a, [postBy(account('x', 'split_x', { links: [site] }))]);
    const id = await personOf(earshot, a.key, github);
    expect(await personOf(earshot, a.key, xAccount)).toBe(id);
    const xAuthorId = (await getPerson(a.key, id)).body.accounts.find((acc: { platform: string }) => acc.platform === 'x').id;
    const aboutX = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'x', note: 'DM', authorId: xAuthorId } });
    const general = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'call' } });

    const split = await earshot.rest('POST', `/v1/people/${id}/split`, { key: a.key, body: { authorId: xAuthorId } });
    expect(split.status).toBe(201);
    expect(split.body).toMatchObject({
      id: personId,
      accounts: [{ id: xAuthorId, handle: 'split_x', splitByHand: true }],
      outreach: { owner: null, stage: 'not_contacted', lastContactAt: isoTime },
    });
    expect(split.body.id).not.toBe(id);
    expect((await earshot.rest('GET', `/v1/people/${split.body.id}/activities`, { key: a.key })).body.data.map((x: { id: string }) => x.id)).toEqual([aboutX.body.id]);
    expect((await earshot.rest('GET', `/v1/people/${id}/activities`, { key: a.key })).body.data.map((x: { id: string }) => x.id)).toEqual([general.body.id]);

    const [again] = await storePosts(earshot, a, [postBy(account('x', 'split_x', { links: [site] }))]);
    expect(await personOf(earshot, a.key, again)).toBe(split.body.id);
    expect(await accountIds(a.key, id)).toEqual(['github:split_gh']);

    const only = await earshot.rest('POST', `/v1/people/${split.body.id}/split`, { key: a.key, body: { authorId: xAuthorId } });
    expect(only.status).toBe(400);
    expect(only.body.error).toMatchObject({ code: 'validation_error', message: 'authorId: the person has no other account to keep' });
    const notTheirs = await earshot.rest('POST', `/v1/people/${id}/split`, { key: a.key, body: { authorId: xAuthorId } });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.error).toMatchObject({ code: 'validation_error', message: "authorId: not one of this person's accounts" });
  });

  it('merges and splits through GraphQL with the same rules', async () => {
    const [one] = await storePosts(earshot, a, [postBy(account('hackernews', 'gql_one'))]);
    const [two] = await storePosts(earshot, a, [postBy(account('hackernews', 'gql_two'))]);
    const [into, from] = [await personOf(earshot, a.key, one), await personOf(earshot, a.key, two)];
    const merged = await earshot.graphql(`mutation($id: ID!, $other: ID!) { mergePeople(id: $id, personId: $other) { id accounts { handle } } }`, { id: into, other: from }, a.key);
    expect(merged.body.data.mergePeople.accounts.map((acc: { handle: string }) => acc.handle).sort()).toEqual(['gql_one', 'gql_two']);
    const authorId = (await getPerson(a.key, into)).body.accounts.find((acc: { handle: string }) => acc.handle === 'gql_two').id;
    const split = await earshot.graphql(`mutation($id: ID!, $author: ID!) { splitPerson(id: $id, authorId: $author) { id handle } }`, { id: into, author: authorId }, a.key);
    expect(split.body.data.splitPerson).toEqual({ id: personId, handle: 'gql_two' });
    const itself = await earshot.graphql(`mutation($id: ID!) { mergePeople(id: $id, personId: $id) { id } }`, { id: into }, a.key);
    expect(itself.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'personId' });
  });
});

describe('outreach', () => {
  async function freshPerson(handle: string): Promise<string> {
    const [mention] = await storePosts(earshot, a, [postBy(account('hackernews', handle))]);
    return personOf(earshot, a.key, mention);
  }

  it('the first activity a member logs claims the unowned person for them and moves it to contacted (spec 3.5.2)', async () => {
    const id = await freshPerson('claim_me');
    const session = await sessionHeaders(earshot, a.memberId, a.workspaceId);
    const logged = await earshot.rest('POST', `/v1/people/${id}/activities`, {
      headers: session,
      body: { channel: 'email', note: '  Intro sent  ', occurredAt: '2026-05-03T09:30:00+02:00' },
    });
    expect(logged.status).toBe(201);
    expect(logged.body).toEqual({
      id: expect.stringMatching(/^act_[0-9a-z]{26}$/),
      personId: id,
      authorId: null,
      channel: 'email',
      note: 'Intro sent',
      madeBy: { userId: a.memberId, apiKeyId: null, apiKey: null },
      occurredAt: '2026-05-03T07:30:00.000Z',
      createdAt: isoTime,
    });
    const person = await getPerson(a.key, id);
    expect(person.body.outreach).toEqual({ owner: a.memberId, stage: 'contacted', lastContactAt: '2026-05-03T07:30:00.000Z' });
  });

  it('never takes an owner away: another member’s activity leaves the owner, and a later stage stays', async () => {
    const id = await freshPerson('owned_already');
    await earshot.rest('PATCH', `/v1/people/${id}`, { key: a.key, body: { ownerId: a.ownerId, stage: 'in_talks' } });
    const session = await sessionHeaders(earshot, a.memberId, a.workspaceId);
    await earshot.rest('POST', `/v1/people/${id}/activities`, { headers: session, body: { channel: 'call' } });
    expect((await getPerson(a.key, id)).body.outreach).toMatchObject({ owner: a.ownerId, stage: 'in_talks' });
  });

  it('an activity logged with an API key is made by the key, claims nobody, and still moves the person to contacted', async () => {
    const id = await freshPerson('by_key');
    // The key is named by its id and name, not only its id, and still after it is revoked.
    const crm = (await earshot.rest('POST', '/v1/api-keys', { key: a.key, body: { name: 'CRM sync' } })).body;
    const logged = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: crm.key, body: { channel: 'linkedin' } });
    const madeByKey = { userId: null, apiKeyId: crm.id, apiKey: { id: crm.id, name: 'CRM sync' } };
    expect(logged.body.madeBy).toEqual(madeByKey);
    expect((await earshot.rest('DELETE', `/v1/api-keys/${crm.id}`, { key: a.key })).status).toBe(204);
    expect((await earshot.rest('GET', `/v1/people/${id}/activities`, { key: a.key })).body.data.map((activity: any) => activity.madeBy)).toEqual([madeByKey]);
    expect(logged.body.note).toBe('');
    expect((await getPerson(a.key, id)).body.outreach).toMatchObject({ owner: null, stage: 'contacted' });
    const session = await sessionHeaders(earshot, a.ownerId, a.workspaceId);
    await earshot.rest('POST', `/v1/people/${id}/activities`, { headers: session, body: { channel: 'meeting' } });
    expect((await getPerson(a.key, id)).body.outreach).toMatchObject({ owner: a.ownerId, stage: 'contacted' });
  });

  it('deleting an activity leaves the owner and the stage; the list pages latest contact first', async () => {
    const id = await freshPerson('delete_activity');
    const session = await sessionHeaders(earshot, a.memberId, a.workspaceId);
    const times = ['2026-04-01T00:00:00Z', '2026-04-03T00:00:00Z', '2026-04-02T00:00:00Z'];
    const ids: string[] = [];
    for (const occurredAt of times) ids.push((await earshot.rest('POST', `/v1/people/${id}/activities`, { headers: session, body: { channel: 'email', occurredAt } })).body.id);

    const first = await earshot.rest('GET', `/v1/people/${id}/activities?limit=2`, { key: a.key });
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([ids[1], ids[2]]);
    const rest = await earshot.rest('GET', `/v1/people/${id}/activities?limit=2&cursor=${first.body.nextCursor}`, { key: a.key });
    expect(rest.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });

    const removed = await earshot.rest('DELETE', `/v1/people/${id}/activities/${ids[1]}`, { key: a.key });
    expect(removed.status).toBe(204);
    expect((await getPerson(a.key, id)).body.outreach).toEqual({ owner: a.memberId, stage: 'contacted', lastContactAt: '2026-04-02T00:00:00.000Z' });
    const again = await earshot.rest('DELETE', `/v1/people/${id}/activities/${ids[1]}`, { key: a.key });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'not_found', message: 'Activity not found' });
  });

  it('PATCH sets owner, stage and muting; a non-member owner is 400 invalid_member; null leaves it unowned', async () => {
    const id = await freshPerson('patch_me');
    const changed = await earshot.rest('PATCH', `/v1/people/${id}`, { key: a.key, body: { ownerId: a.memberId, stage: 'customer', muted: true } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, muted: true, outreach: { owner: a.memberId, stage: 'customer', lastContactAt: null } });

    const stranger = await seedWorkspace(earshot, 'stranger-owner');
    const refused = await earshot.rest('PATCH', `/v1/people/${id}`, { key: a.key, body: { ownerId: stranger.ownerId } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: { code: 'invalid_member', message: 'ownerId: not a member of this workspace', field: 'ownerId', requestId: refused.headers.get('x-request-id') },
    });
    const badStage = await earshot.rest('PATCH', `/v1/people/${id}`, { key: a.key, body: { stage: 'won' } });
    expect(badStage.status).toBe(400);
    expect(badStage.body.error).toMatchObject({ code: 'validation_error', field: 'stage' });

    const released = await earshot.rest('PATCH', `/v1/people/${id}`, { key: a.key, body: { ownerId: null } });
    expect(released.body.outreach).toMatchObject({ owner: null, stage: 'customer' });
  });

  it('reads a channel in any case or by the spec’s spelling (e-mail, X, LinkedIn) as its one name', async () => {
    const id = await freshPerson('channel_names');
    const written = ['e-mail', 'X', 'LinkedIn', ' Call ', 'Twitter', 'phone'];
    const logged = [];
    for (const channel of written) logged.push((await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel } })).body.channel);
    expect(logged).toEqual(['email', 'x', 'linkedin', 'call', 'x', 'call']);
  });

  it('refuses an activity in the future, of an unknown channel, or naming another person’s account', async () => {
    const id = await freshPerson('bad_activity');
    const future = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'email', occurredAt: '2999-01-01T00:00:00Z' } });
    expect(future.body.error).toMatchObject({ code: 'validation_error', message: 'occurredAt: must not be in the future' });
    const yearZero = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'email', occurredAt: '0000-01-01T00:00:00Z' } });
    expect([yearZero.status, yearZero.body.error?.field]).toEqual([400, 'occurredAt']);
    const channel = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'pigeon' } });
    expect(channel.body.error).toMatchObject({ code: 'validation_error', field: 'channel' });
    const other = await earshot.rest('POST', `/v1/people/${id}/activities`, { key: a.key, body: { channel: 'email', authorId: 'aut_00000000000000000000000000' } });
    expect(other.body.error).toMatchObject({ code: 'validation_error', field: 'authorId' });
    expect((await getPerson(a.key, id)).body.outreach).toEqual({ owner: null, stage: 'not_contacted', lastContactAt: null });
  });
});

describe('people and workspaces', () => {
  it('gives a shared author a separate person in each workspace; ids, owners and notes never cross', async () => {
    const b = await seedWorkspace(earshot, 'b');
    const shared = account('github', 'shared_dev', { links: ['https://shared-dev.example'] });
    const [inA] = await storePosts(earshot, a, [postBy(shared)]);
    const [inB] = await storePosts(earshot, b, [postBy(shared)]);
    const [personA, personB] = [await personOf(earshot, a.key, inA), await personOf(earshot, b.key, inB)];
    expect(personA).not.toBe(personB);
    await earshot.rest('PATCH', `/v1/people/${personA}`, { key: a.key, body: { ownerId: a.ownerId, muted: true } });
    await earshot.rest('POST', `/v1/people/${personA}/activities`, { key: a.key, body: { channel: 'email', note: 'secret note of A' } });
    // a link-sharing account seen only in A merges there, never in B
    await storePosts(earshot, a, [postBy(account('x', 'shared_dev_x', { links: ['https://shared-dev.example'] }))]);

    const inBView = await getPerson(b.key, personB);
    expect(inBView.body).toMatchObject({ muted: false, outreach: { owner: null, stage: 'not_contacted', lastContactAt: null } });
    expect(inBView.body.accounts.map((acc: { handle: string }) => acc.handle)).toEqual(['shared_dev']);
    expect((await earshot.rest('GET', `/v1/people/${personB}/activities`, { key: b.key })).body.data).toEqual([]);
    expect(await accountIds(a.key, personA)).toEqual(['github:shared_dev', 'x:shared_dev_x']);

    const listed = await earshot.rest('GET', '/v1/people?limit=100', { key: b.key });
    expect(JSON.stringify(listed.body)).not.toContain(personA);
    expect(JSON.stringify(listed.body)).not.toContain('secret note');

    for (const [method, path, body] of [
      ['GET', `/v1/people/${personA}`, undefined],
      ['PATCH', `/v1/people/${personA}`, { stage: 'contacted' }],
      ['GET', `/v1/people/${personA}/activities`, undefined],
      ['POST', `/v1/people/${personA}/activities`, { channel: 'email' }],
      ['POST', `/v1/people/${personA}/split`, { authorId: 'aut_x' }],
      ['POST', `/v1/people/${personA}/merge`, { personId: personB }],
    ] as const) {
      const answer = await earshot.rest(method, path, { key: b.key, body });
      expect({ path, method, status: answer.status, code: answer.body.error.code }).toEqual({ path, method, status: 404, code: 'not_found' });
    }
    const mergeAcross = await earshot.rest('POST', `/v1/people/${personB}/merge`, { key: b.key, body: { personId: personA } });
    expect(mergeAcross.status).toBe(404);
    expect((await getPerson(a.key, personA)).body.outreach).toMatchObject({ owner: a.ownerId, stage: 'contacted' });
  });
});
