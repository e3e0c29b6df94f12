import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordFields } from '../rest-facade/routes/keywords.ts';
import { comparableKeyword } from './comparable-keyword.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
/** The caller. */
let mine: string;
/** Another workspace, whose ids the caller tries. */
let theirs: string;
let theirKeyword: any;
let theirGroup: any;
let theirDefaultGroup: any;
let myKeyword: any;

beforeAll(async () => {
  earshot = await startTestEarshot();
  mine = (await earshot.createWorkspace('Mine')).apiKey;
  theirs = (await earshot.createWorkspace('Theirs')).apiKey;
  theirGroup = (await earshot.rest('POST', '/v1/groups', { key: theirs, body: { name: 'Secret', externalId: 'shared-id' } })).body;
  theirKeyword = (await earshot.rest('POST', '/v1/keywords', { key: theirs, body: { term: 'acme', groupId: theirGroup.id } })).body;
  theirDefaultGroup = (await earshot.rest('GET', '/v1/groups', { key: theirs })).body.data[0];
  myKeyword = (await earshot.rest('POST', '/v1/keywords', { key: mine, body: { term: 'acme' } })).body;
});
afterAll(() => earshot?.stop());

/** Everything the other workspace has, as it reads it. */
async function theirState() {
  const [keywords, groups, filters, profile] = await Promise.all(
    ['/v1/keywords', '/v1/groups', '/v1/filters', '/v1/company-profile'].map((path) => earshot.rest('GET', path, { key: theirs })),
  );
  return { keywords: keywords.body.data.map(comparableKeyword), groups: groups.body, filters: filters.body, profile: profile.body };
}

describe('workspace isolation over REST', () => {
  it("answers 404, never 403, for another workspace's keywords and groups, and changes nothing of theirs", async () => {
    const before = await theirState();
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/keywords/${theirKeyword.id}`],
      ['PATCH', `/v1/keywords/${theirKeyword.id}`, { muted: true }],
      ['DELETE', `/v1/keywords/${theirKeyword.id}`],
      ['GET', `/v1/groups/${theirGroup.id}`],
      ['PATCH', `/v1/groups/${theirGroup.id}`, { name: 'Mine now' }],
      ['DELETE', `/v1/groups/${theirGroup.id}`],
      ['DELETE', `/v1/groups/${theirDefaultGroup.id}`],
      ['GET', `/v1/keywords?groupId=${theirGroup.id}`],
      ['POST', '/v1/keywords', { term: 'intruder', groupId: theirGroup.id }],
      ['PATCH', `/v1/keywords/${myKeyword.id}`, { groupId: theirGroup.id }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await earshot.rest(method, path, { key: mine, body });
      expect({ method, path, status: response.status, code: response.body.error.code }).toEqual({ method, path, status: 404, code: 'not_found' });
    }
    expect(await theirState()).toEqual(before);
    expect(comparableKeyword((await earshot.rest('GET', `/v1/keywords/${myKeyword.id}`, { key: mine })).body)).toEqual(comparableKeyword(myKeyword));
  });

  it("lists only the caller's keywords and groups, and reuses names and externalIds freely across workspaces", async () => {
    const keywords = await earshot.rest('GET', '/v1/keywords', { key: mine });
    expect({ ...keywords.body, data: keywords.body.data.map(comparableKeyword) }).toEqual({ data: [comparableKeyword(myKeyword)], nextCursor: null });
    const groups = await earshot.rest('GET', '/v1/groups', { key: mine });
    expect(groups.body.data.map((group: { id: string }) => group.id)).toEqual([myKeyword.group.id]);
    const sameNames = await earshot.rest('POST', '/v1/groups', { key: mine, body: { name: 'Secret', externalId: 'shared-id' } });
    expect(sameNames.status).toBe(201);
    const afterMyGroup = await earshot.rest('GET', '/v1/groups', { key: theirs });
    expect(afterMyGroup.body.data.map((group: { id: string }) => group.id)).toEqual([theirDefaultGroup.id, theirGroup.id]);
    await earshot.rest('DELETE', `/v1/groups/${sameNames.body.id}`, { key: mine });
  });

  it("does not page into another workspace's keywords with a cursor made from their id", async () => {
    const cursor = Buffer.from(theirKeyword.id).toString('base64url');
    const page = await earshot.rest('GET', `/v1/keywords?cursor=${cursor}`, { key: mine });
    expect(page.status).toBe(200);
    expect(page.body.data.every((keyword: { id: string }) => keyword.id !== theirKeyword.id)).toBe(true);
  });

  it('keeps filters and the company profile per workspace', async () => {
    const before = await theirState();
    await earshot.rest('PATCH', '/v1/filters', { key: mine, body: { excludedTerms: ['mine'] } });
    await earshot.rest('PATCH', '/v1/company-profile', { key: mine, body: { name: 'Mine Inc' } });
    expect(await theirState()).toEqual(before);
    expect((await earshot.rest('GET', '/v1/filters', { key: mine })).body.excludedTerms).toEqual(['mine']);
    expect((await earshot.rest('GET', '/v1/company-profile', { key: mine })).body.name).toBe('Mine Inc');
  });
});

describe('workspace isolation over GraphQL', () => {
  it("answers not_found for another workspace's ids in every query and mutation", async () => {
    const before = await theirState();
    const attempts: [string, Record<string, unknown>][] = [
      ['query ($id: ID!) { keyword(id: $id) { id } }', { id: theirKeyword.id }],
      ['mutation ($id: ID!) { updateKeyword(id: $id, input: { muted: true }) { id } }', { id: theirKeyword.id }],
      ['mutation ($id: ID!) { deleteKeyword(id: $id) }', { id: theirKeyword.id }],
      ['query ($id: ID!) { group(id: $id) { id } }', { id: theirGroup.id }],
      ['mutation ($id: ID!) { updateGroup(id: $id, input: { name: "Mine now" }) { id } }', { id: theirGroup.id }],
      ['mutation ($id: ID!) { deleteGroup(id: $id) }', { id: theirGroup.id }],
      ['query ($id: ID!) { keywords(groupId: $id) { nextCursor } }', { id: theirGroup.id }],
      ['mutation ($id: ID!) { createKeyword(input: { term: "intruder", groupId: $id }) { id } }', { id: theirGroup.id }],
      ['mutation ($id: ID!, $groupId: ID!) { updateKeyword(id: $id, input: { groupId: $groupId }) { id } }', { id: myKeyword.id, groupId: theirGroup.id }],
    ];
    for (const [query, variables] of attempts) {
      const response = await earshot.graphql(query, variables, mine);
      expect({ query, code: response.body.errors?.[0]?.extensions?.code }).toEqual({ query, code: 'not_found' });
      expect(response.status).not.toBe(403);
    }
    expect(await theirState()).toEqual(before);
  });

  it("lists only the caller's keywords, groups and settings", async () => {
    await earshot.rest('PATCH', '/v1/filters', { key: theirs, body: { excludedTerms: ['theirs'] } });
    const lists = await earshot.graphql(
      `{ keywords { nodes { ${keywordFields} } nextCursor } groups { id } workspaceFilters { excludedTerms } companyProfile { name } }`,
      {},
      mine,
    );
    expect(lists.body.data.keywords.nodes.map(comparableKeyword)).toEqual([comparableKeyword(myKeyword)]);
    expect(lists.body.data.keywords.nextCursor).toBeNull();
    expect(lists.body.data.groups).toEqual([{ id: myKeyword.group.id }]);
    expect(lists.body.data.workspaceFilters.excludedTerms).not.toContain('theirs');
  });
});
