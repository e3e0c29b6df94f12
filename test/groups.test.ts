import { type DocumentNode, execute, type ExecutionResult, type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../runtime/clock.ts';
import { createLogger } from '../runtime/logger.ts';
import { compiledExecutor } from '../subgraphs/compiled-execution.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';
import { keywordLoaders } from '../subgraphs/keywords/keyword-loaders.ts';
import type { SubgraphContext } from '../subgraphs/subgraph-server.ts';
import { comparableKeyword } from './comparable-keyword.ts';
import { startTestEarshot, type TestEarshot, waitersOnLocks } from './harness.ts';

let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

const timestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const groupId = expect.stringMatching(/^grp_[0-9a-z]{26}$/);
const groupFields = 'id name externalId description isDefault keywordCount createdAt';

/** A fresh workspace, so each test sees only its own groups. */
async function workspaceKey() {
  return (await earshot.createWorkspace()).apiKey;
}

async function defaultGroupOf(key: string) {
  const listed = await earshot.rest('GET', '/v1/groups', { key });
  return listed.body.data.find((group: { isDefault: boolean }) => group.isDefault);
}

describe('groups over REST', () => {
  it('gives every workspace one default group, where keywords land when no group is named', async () => {
    const key = await workspaceKey();
    const listed = await earshot.rest('GET', '/v1/groups', { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [{ id: groupId, name: 'Default', externalId: null, description: null, isDefault: true, keywordCount: 0, createdAt: timestamp }],
    });
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme' } });
    expect(keyword.body.group).toEqual({ id: listed.body.data[0].id, name: 'Default', externalId: null, isDefault: true });
    const after = await earshot.rest('GET', `/v1/groups/${listed.body.data[0].id}`, { key });
    expect(after.body).toEqual({ ...listed.body.data[0], keywordCount: 1 });
  });

  it('creates a group with its externalId and description, and lists it after the default group', async () => {
    const key = await workspaceKey();
    const created = await earshot.rest('POST', '/v1/groups', {
      key,
      body: { name: '  Competitors ', externalId: 'crm-42', description: 'Rival products we watch' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: groupId,
      name: 'Competitors',
      externalId: 'crm-42',
      description: 'Rival products we watch',
      isDefault: false,
      keywordCount: 0,
      createdAt: timestamp,
    });
    expect((await earshot.rest('GET', `/v1/groups/${created.body.id}`, { key })).body).toEqual(created.body);
    const second = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Topics' } });
    expect(second.body).toMatchObject({ name: 'Topics', externalId: null, description: null });
    const listed = await earshot.rest('GET', '/v1/groups', { key });
    expect(listed.body.data.map((group: { name: string }) => group.name)).toEqual(['Default', 'Competitors', 'Topics']);
  });

  it('answers 409 duplicate_group for a name taken in any case or an externalId taken, naming the field', async () => {
    const key = await workspaceKey();
    const first = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Brands', externalId: 'ext-1' } });
    const sameName = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'BRANDS' } });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({
      error: { code: 'duplicate_group', message: 'A group named "BRANDS" already exists', requestId: sameName.headers.get('x-request-id'), field: 'name' },
    });
    const defaultName = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'default' } });
    expect(defaultName.status).toBe(409);
    expect(defaultName.body.error).toMatchObject({ code: 'duplicate_group', field: 'name' });
    const sameExternalId = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Other', externalId: 'ext-1' } });
    expect(sameExternalId.status).toBe(409);
    expect(sameExternalId.body.error).toMatchObject({ code: 'duplicate_group', field: 'externalId' });

    const second = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Second' } });
    const renamedOnto = await earshot.rest('PATCH', `/v1/groups/${second.body.id}`, { key, body: { name: 'bRaNdS' } });
    expect(renamedOnto.status).toBe(409);
    expect(renamedOnto.body.error).toMatchObject({ code: 'duplicate_group', field: 'name' });
    const externalIdOnto = await earshot.rest('PATCH', `/v1/groups/${second.body.id}`, { key, body: { externalId: 'ext-1' } });
    expect(externalIdOnto.status).toBe(409);
    expect(externalIdOnto.body.error).toMatchObject({ code: 'duplicate_group', field: 'externalId' });
    expect((await earshot.rest('GET', `/v1/groups/${second.body.id}`, { key })).body).toEqual(second.body);
    expect((await earshot.rest('GET', `/v1/groups/${first.body.id}`, { key })).body).toEqual(first.body);

    const renamedCase = await earshot.rest('PATCH', `/v1/groups/${first.body.id}`, { key, body: { name: 'BRANDS' } });
    expect(renamedCase.status).toBe(200);
    expect(renamedCase.body.name).toBe('BRANDS');
  });

  it('renames a group keeping its id; omitted fields stay and null clears externalId and description', async () => {
    const key = await workspaceKey();
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Old', externalId: 'x-1', description: 'About' } });
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: group.body.id } });
    const renamed = await earshot.rest('PATCH', `/v1/groups/${group.body.id}`, { key, body: { name: 'New' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...group.body, name: 'New', keywordCount: 1 });
    const fetchedKeyword = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(fetchedKeyword.body.group).toEqual({ id: group.body.id, name: 'New', externalId: 'x-1', isDefault: false });
    const cleared = await earshot.rest('PATCH', `/v1/groups/${group.body.id}`, { key, body: { externalId: null, description: null } });
    expect(cleared.body).toEqual({ ...renamed.body, externalId: null, description: null });
    const unchanged = await earshot.rest('PATCH', `/v1/groups/${group.body.id}`, { key, body: {} });
    expect(unchanged.body).toEqual(cleared.body);
  });

  it('keeps the default group: no deleting it, and it takes no description because it reads the company profile', async () => {
    const key = await workspaceKey();
    const defaultGroup = await defaultGroupOf(key);
    const deleted = await earshot.rest('DELETE', `/v1/groups/${defaultGroup.id}`, { key });
    expect(deleted.status).toBe(409);
    expect(deleted.body).toEqual({
      error: { code: 'default_group', message: 'The default group cannot be deleted', requestId: deleted.headers.get('x-request-id') },
    });
    const described = await earshot.rest('PATCH', `/v1/groups/${defaultGroup.id}`, { key, body: { description: 'Our product' } });
    expect(described.status).toBe(409);
    expect(described.body.error).toMatchObject({ code: 'default_group_context', field: 'description' });
    const renamed = await earshot.rest('PATCH', `/v1/groups/${defaultGroup.id}`, { key, body: { name: 'Inbox', externalId: 'main', description: null } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...defaultGroup, name: 'Inbox', externalId: 'main' });
    expect(await defaultGroupOf(key)).toEqual(renamed.body);
  });

  it('takes context as another name for description, on create and PATCH, and the default group refuses it as default_group_context', async () => {
    const key = await workspaceKey();
    const created = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Rivals', context: 'Products we compete with' } });
    expect({ status: created.status, description: created.body.description }).toEqual({ status: 201, description: 'Products we compete with' });
    const patched = await earshot.rest('PATCH', `/v1/groups/${created.body.id}`, { key, body: { context: 'Rival products' } });
    expect(patched.body).toEqual({ ...created.body, description: 'Rival products' });
    const same = await earshot.rest('PATCH', `/v1/groups/${created.body.id}`, { key, body: { description: 'Both', context: 'Both' } });
    expect(same.body.description).toBe('Both');
    const cleared = await earshot.rest('PATCH', `/v1/groups/${created.body.id}`, { key, body: { context: null } });
    expect(cleared.body.description).toBeNull();
    const conflicting = await earshot.rest('PATCH', `/v1/groups/${created.body.id}`, { key, body: { description: 'One', context: 'Another' } });
    expect({ status: conflicting.status, code: conflicting.body.error.code, field: conflicting.body.error.field }).toEqual({ status: 400, code: 'validation_error', field: 'context' });

    const defaultGroup = await defaultGroupOf(key);
    const refused = await earshot.rest('PATCH', `/v1/groups/${defaultGroup.id}`, { key, body: { context: 'Our product' } });
    expect({ status: refused.status, code: refused.body.error.code, field: refused.body.error.field }).toEqual({ status: 409, code: 'default_group_context', field: 'context' });
    expect(await defaultGroupOf(key)).toEqual(defaultGroup);
  });

  it('moves a keyword between groups with groupId, and refuses a move onto a term the group tracks in any case', async () => {
    const key = await workspaceKey();
    const defaultGroup = await defaultGroupOf(key);
    const brands = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Brands' } });
    const inDefault = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', context: 'Our product' } });
    const inBrands = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'ACME', groupId: brands.body.id } });
    expect(inBrands.status).toBe(201);
    expect(inBrands.body.group).toEqual({ id: brands.body.id, name: 'Brands', externalId: null, isDefault: false });

    const clash = await earshot.rest('PATCH', `/v1/keywords/${inDefault.body.id}`, { key, body: { groupId: brands.body.id, context: 'changed' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'duplicate_keyword', field: 'term' });
    expect(comparableKeyword((await earshot.rest('GET', `/v1/keywords/${inDefault.body.id}`, { key })).body)).toEqual(comparableKeyword(inDefault.body));

    const other = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'widget' } });
    const moved = await earshot.rest('PATCH', `/v1/keywords/${other.body.id}`, { key, body: { groupId: brands.body.id } });
    expect(moved.status).toBe(200);
    expect(comparableKeyword(moved.body)).toEqual(comparableKeyword({ ...other.body, group: inBrands.body.group }));
    const counts = await earshot.rest('GET', '/v1/groups', { key });
    expect(counts.body.data.map((group: { id: string; keywordCount: number }) => [group.id, group.keywordCount])).toEqual([
      [defaultGroup.id, 1],
      [brands.body.id, 2],
    ]);
    const listed = await earshot.rest('GET', `/v1/keywords?groupId=${brands.body.id}`, { key });
    expect(listed.body.data.map((keyword: { id: string }) => keyword.id)).toEqual([inBrands.body.id, other.body.id]);
  });

  it('answers 404 for a groupId that names no group of the workspace', async () => {
    const key = await workspaceKey();
    const missing = 'grp_00000000000000000000000000';
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: missing } });
    expect(created.status).toBe(404);
    expect(created.body.error).toMatchObject({ code: 'not_found', field: 'groupId' });
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme' } });
    const moved = await earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { groupId: missing } });
    expect(moved.status).toBe(404);
    expect(moved.body.error).toMatchObject({ code: 'not_found', field: 'groupId' });
    const listed = await earshot.rest('GET', `/v1/keywords?groupId=${missing}`, { key });
    expect(listed.status).toBe(404);
    expect(listed.body.error).toMatchObject({ code: 'not_found', field: 'groupId' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const response = await earshot.rest(method, `/v1/groups/${missing}`, { key, body });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'not_found', message: 'Group not found' });
    }
  });

  it('answers 404, not a failure, for a keyword whose group is deleted while the keyword is being created', async () => {
    const key = await workspaceKey();
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Doomed' } });
    // A deletion in progress holds the group's row until it commits; the
    // keyword's creation starts meanwhile and must wait for it.
    const { creation } = await earshot.sql.begin(async (tx) => {
      await tx`select id from keyword_groups where id = ${group.body.id} for update`;
      const pending = earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: group.body.id } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx`delete from keyword_groups where id = ${group.body.id}`;
      return { creation: pending };
    });
    const created = await creation;
    expect(created.status).toBe(404);
    expect(created.body.error).toMatchObject({ code: 'not_found', field: 'groupId' });
    expect((await earshot.rest('GET', '/v1/keywords', { key })).body.data).toEqual([]);
  });

  // Found by a parallel probe: a keyword PATCH naming its group held the keyword and then waited for the group,
  // which the group's delete held while waiting to move that keyword (deadlock, 500 to one of them). Here both
  // are held up on the keyword until each has started.
  it('takes a keyword PATCH naming its group and the delete of that group at once', async () => {
    const key = await workspaceKey();
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Raced' } });
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: group.body.id } });
    const { patch, remove } = await earshot.sql.begin(async (tx) => {
      await tx`select id from keywords where id = ${keyword.body.id} for update`;
      const patch = earshot.rest('PATCH', `/v1/keywords/${keyword.body.id}`, { key, body: { term: 'acme corp', groupId: group.body.id } });
      await waitersOnLocks(earshot.sql, 1);
      const remove = earshot.rest('DELETE', `/v1/groups/${group.body.id}`, { key });
      await Promise.race([remove, waitersOnLocks(earshot.sql, 2)]);
      return { patch, remove };
    });
    expect((await patch).status).toBe(200);
    expect((await remove).status).toBe(204);
    const after = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(after.body).toMatchObject({ term: 'acme corp', group: { isDefault: true } });
  });

  // Found by running the test above in a loop: its PATCH committed, the delete waiting on it then moved the keyword
  // and deleted the group, and only then did the PATCH's answer read the keyword's group, which was gone: 500 for a
  // write that was stored (3 times in 40 rounds). Here one request's keyword is read before the delete and its group
  // after, as the PATCH's answer was, and as any read of keywords can be.
  describe('a keyword read before the delete of its group, its group read after', () => {
    const groupQuery = parse('query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Keyword { id group { id isDefault } } } }');
    type Executor = (document: DocumentNode, variables: Record<string, unknown>, context: SubgraphContext) => Promise<ExecutionResult>;
    // The keywords subgraph may run either: graphql-jit completes a null and words a resolver's error its own way.
    const executors: [string, Executor][] = [
      ['graphql-js', async (document, variableValues, contextValue) => execute({ schema: await subgraphSchemas.keywords(), document, contextValue, variableValues })],
      [
        'graphql-jit',
        async (document, variables, context) =>
          compiledExecutor(await subgraphSchemas.keywords())({
            document,
            operationName: null,
            operation: document.definitions[0] as OperationDefinitionNode,
            variables,
            context,
          }),
      ],
    ];

    async function readKeywordThenGroup(run: Executor, deleteMeanwhile: (key: string, groupId: string, keywordId: string) => Promise<void>) {
      const { apiKey: key, workspace } = await earshot.createWorkspace();
      const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Deleted meanwhile' } });
      const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: group.body.id } });
      const request = {
        sql: earshot.sql,
        auth: { workspaceId: workspace.id, kind: 'api_key', scope: 'write', apiKeyId: 'key_1', expiresAt: null, userId: null },
        requestId: 'req_1',
        clientAddress: null,
        log: createLogger('silent'),
        clock: systemClock,
      } as unknown as SubgraphContext;
      expect(await keywordLoaders(request).keyword.load(keyword.body.id)).toMatchObject({ groupId: group.body.id });
      await deleteMeanwhile(key, group.body.id, keyword.body.id);
      const result = await run(groupQuery, { representations: [{ __typename: 'Keyword', id: keyword.body.id }] }, request);
      return { result, defaultGroup: await defaultGroupOf(key) };
    }

    it.each(executors)('answers the group the delete moved the keyword to (%s)', async (_name, run) => {
      const { result, defaultGroup } = await readKeywordThenGroup(run, async (key, groupId) => {
        expect((await earshot.rest('DELETE', `/v1/groups/${groupId}`, { key })).status).toBe(204);
      });
      expect(result.errors).toBeUndefined();
      expect(result.data?._entities).toEqual([{ id: expect.any(String), group: { id: defaultGroup.id, isDefault: true } }]);
    });

    it.each(executors)('answers group_changed when the keyword was deleted meanwhile too (%s)', async (_name, run) => {
      const { result } = await readKeywordThenGroup(run, async (key, groupId, keywordId) => {
        expect((await earshot.rest('DELETE', `/v1/groups/${groupId}`, { key })).status).toBe(204);
        expect((await earshot.rest('DELETE', `/v1/keywords/${keywordId}`, { key })).status).toBe(204);
      });
      expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['group_changed']);
    });
  });

  it('deletes a group and moves its keywords, settings kept, to the default group', async () => {
    const key = await workspaceKey();
    const defaultGroup = await defaultGroupOf(key);
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Doomed' } });
    const keyword = await earshot.rest('POST', '/v1/keywords', {
      key,
      body: { term: 'acme', groupId: group.body.id, matching: { requiredTerms: ['cloud'] }, context: 'The cloud' },
    });
    const deleted = await earshot.rest('DELETE', `/v1/groups/${group.body.id}`, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await earshot.rest('GET', `/v1/groups/${group.body.id}`, { key })).status).toBe(404);
    const after = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}`, { key });
    expect(comparableKeyword(after.body)).toEqual(comparableKeyword({ ...keyword.body, group: { id: defaultGroup.id, name: 'Default', externalId: null, isDefault: true } }));
    expect((await earshot.rest('GET', '/v1/groups', { key })).body).toEqual({ data: [{ ...defaultGroup, keywordCount: 1 }] });
    const again = await earshot.rest('DELETE', `/v1/groups/${group.body.id}`, { key });
    expect(again.status).toBe(404);
  });

  it('refuses to delete a group when the default group tracks one of its terms, changing nothing', async () => {
    const key = await workspaceKey();
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Clashing' } });
    const kept = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'fine', groupId: group.body.id } });
    const clashing = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', groupId: group.body.id } });
    await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme' } });
    const deleted = await earshot.rest('DELETE', `/v1/groups/${group.body.id}`, { key });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toMatchObject({
      code: 'duplicate_keyword',
      message: 'The default group already tracks "Acme"; rename, move or delete one of the two keywords first',
    });
    expect((await earshot.rest('GET', `/v1/groups/${group.body.id}`, { key })).body).toEqual({ ...group.body, keywordCount: 2 });
    expect(comparableKeyword((await earshot.rest('GET', `/v1/keywords/${kept.body.id}`, { key })).body)).toEqual(comparableKeyword(kept.body));
    expect(comparableKeyword((await earshot.rest('GET', `/v1/keywords/${clashing.body.id}`, { key })).body)).toEqual(comparableKeyword(clashing.body));
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'n'.repeat(101) }, 'name'],
    [{ name: 'two\nlines' }, 'name'],
    [{ name: 'ok', externalId: '' }, 'externalId'],
    [{ name: 'ok', externalId: 'e'.repeat(201) }, 'externalId'],
    [{ name: 'ok', description: 'd'.repeat(1001) }, 'description'],
    [{ name: 'ok', colour: 'red' }, 'colour'],
    [{ name: 42 }, 'name'],
    [{}, 'name'],
  ])('refuses the group %j naming the field %s', async (body, field) => {
    const key = await workspaceKey();
    const response = await earshot.rest('POST', '/v1/groups', { key, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field });
    expect((await earshot.rest('GET', '/v1/groups', { key })).body.data).toHaveLength(1);
  });

  it('accepts a name of 100 characters, an externalId of 200 and a description of 1000', async () => {
    const key = await workspaceKey();
    const body = { name: 'n'.repeat(100), externalId: 'e'.repeat(200), description: 'd'.repeat(1000) };
    const response = await earshot.rest('POST', '/v1/groups', { key, body });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject(body);
  });
});

describe('groups over GraphQL', () => {
  it('lists, creates, renames and deletes groups with the same rules and error codes', async () => {
    const key = await workspaceKey();
    const listed = await earshot.graphql(`{ groups { ${groupFields} } }`, {}, key);
    expect(listed.body).toEqual({
      data: { groups: [{ id: groupId, name: 'Default', externalId: null, description: null, isDefault: true, keywordCount: 0, createdAt: timestamp }] },
    });
    const create = `mutation ($input: CreateGroupInput!) { createGroup(input: $input) { ${groupFields} } }`;
    const created = await earshot.graphql(create, { input: { name: 'Rivals', externalId: 'r1' } }, key);
    expect(created.body.data.createGroup).toEqual({
      id: groupId, name: 'Rivals', externalId: 'r1', description: null, isDefault: false, keywordCount: 0, createdAt: timestamp,
    });
    const duplicate = await earshot.graphql(create, { input: { name: 'rivals' } }, key);
    expect(duplicate.body.errors[0]).toMatchObject({ message: 'A group named "rivals" already exists', extensions: { code: 'duplicate_group', field: 'name' } });

    const update = `mutation ($id: ID!, $input: GroupPatchInput!) { updateGroup(id: $id, input: $input) { ${groupFields} } }`;
    const renamed = await earshot.graphql(update, { id: created.body.data.createGroup.id, input: { name: 'Competitors' } }, key);
    expect(renamed.body.data.updateGroup).toEqual({ ...created.body.data.createGroup, name: 'Competitors' });
    const defaultId = listed.body.data.groups[0].id;
    const described = await earshot.graphql(update, { id: defaultId, input: { description: 'x' } }, key);
    expect(described.body.errors[0].extensions).toMatchObject({ code: 'default_group_context', field: 'description' });
    const tooLong = await earshot.graphql(update, { id: defaultId, input: { name: 'n'.repeat(101) } }, key);
    expect(tooLong.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'name' });

    const remove = 'mutation ($id: ID!) { deleteGroup(id: $id) }';
    const defaultDelete = await earshot.graphql(remove, { id: defaultId }, key);
    expect(defaultDelete.body.errors[0].extensions.code).toBe('default_group');
    const deleted = await earshot.graphql(remove, { id: created.body.data.createGroup.id }, key);
    expect(deleted.body).toEqual({ data: { deleteGroup: created.body.data.createGroup.id } });
    const gone = await earshot.graphql(`query ($id: ID!) { group(id: $id) { id } }`, { id: created.body.data.createGroup.id }, key);
    expect(gone.body.errors[0]).toMatchObject({ message: 'Group not found', extensions: { code: 'not_found' } });
  });

  it('moves a keyword with updateKeyword(groupId) and answers duplicate_keyword on a clash', async () => {
    const key = await workspaceKey();
    const group = await earshot.rest('POST', '/v1/groups', { key, body: { name: 'Elsewhere' } });
    await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'acme', groupId: group.body.id } });
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme' } });
    const move = 'mutation ($id: ID!, $input: KeywordPatchInput!) { updateKeyword(id: $id, input: $input) { id group { id name isDefault } } }';
    const clash = await earshot.graphql(move, { id: keyword.body.id, input: { groupId: group.body.id } }, key);
    expect(clash.body.errors[0].extensions).toMatchObject({ code: 'duplicate_keyword', field: 'term' });
    const renamed = await earshot.graphql(move, { id: keyword.body.id, input: { term: 'acme two', groupId: group.body.id } }, key);
    expect(renamed.body).toEqual({ data: { updateKeyword: { id: keyword.body.id, group: { id: group.body.id, name: 'Elsewhere', isDefault: false } } } });
  });
});
