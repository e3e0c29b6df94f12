import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphNames } from '../runtime/config.ts';
import { mentionEvents } from '../subgraphs/mentions/mention-events.ts';
import { announceMentionsCreated, mentionCreatedChannel, mentionUpdatedChannel } from '../subgraphs/mentions/mention-store.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { endedByCredential, rawSubscription } from './live-mentions.ts';
import { type MentionSeed, seedMentions } from './mention-seeds.ts';
import { redditPost, relevantRustPosts, rustContext, storeAndScore } from './scored-mentions.ts';

/** `mentionCreated` and `mentionUpdated` with a filter (issue 14): only what the list would show, only the workspace's own. */

let earshot: TestEarshot;
const clients: Client[] = [];
let mine: { workspaceId: string; key: string; keywordId: string };
let theirs: { workspaceId: string; key: string; keywordId: string };

async function workspace(name: string) {
  const created = await earshot.createWorkspace(name);
  const keyword = await earshot.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term: 'Rust', platforms: [], context: rustContext } });
  expect(keyword.status, JSON.stringify(keyword.body)).toBe(201);
  return { workspaceId: created.workspace.id, key: created.apiKey, keywordId: keyword.body.id as string };
}

beforeAll(async () => {
  earshot = await startTestEarshot();
  mine = await workspace('Listener');
  theirs = await workspace('Neighbour');
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await earshot?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every result a subscription delivers, in order, and how it ended. */
function collect(key: string, query: string, variables: Record<string, unknown>) {
  const client = earshot.subscribe(key);
  clients.push(client);
  const results: any[] = [];
  const ended = new Promise<{ error?: unknown }>((resolve) => {
    client.subscribe({ query, variables }, { next: (result) => results.push(result), error: (error) => resolve({ error }), complete: () => resolve({}) });
  });
  return { results, ended };
}

/** Stores scored mentions the way ingestion would leave them, and announces them as admission does. */
async function announceNew(owner: typeof mine, seeds: Omit<MentionSeed, 'keywordId'>[]): Promise<string[]> {
  const ids = await seedMentions(earshot.sql, owner.workspaceId, seeds.map((seed) => ({ keywordId: owner.keywordId, ...seed })));
  await announceMentionsCreated(earshot.sql, ids.map((id) => ({ id, workspaceId: owner.workspaceId })));
  return ids;
}

/**
 * graphql-ws gives no signal when the gateway's subscription to the
 * subgraph is live, so this repeats `act` until a result arrives; from then
 * on nothing is missed. The results so far are cleared.
 */
async function untilLive(results: unknown[], act: () => Promise<unknown>) {
  for (let attempt = 0; attempt < 50 && results.length === 0; attempt++) {
    await act();
    for (let waited = 0; waited < 200 && results.length === 0; waited += 20) await sleep(20);
  }
  expect(results.length).toBeGreaterThan(0);
  // A warm-up sent twice may still be on its way.
  await sleep(300);
  results.length = 0;
}

const relevantReddit: Omit<MentionSeed, 'keywordId'> = { platform: 'reddit', score: { relevance: 90, sentiment: 'positive' } };

/**
 * Warm-ups for several subscriptions of one workspace: a later subscription's warm-up reaches the earlier ones
 * too, and under load after their own was cleared, so what they receive is read without the warm-ups' mentions.
 */
function warmUps() {
  const ids = new Set<string>();
  return {
    announce: async () => (await announceNew(mine, [relevantReddit])).forEach((id) => ids.add(id)),
    without: (results: any[]) => results.filter((result) => !ids.has(result.data?.mentionCreated?.id)),
  };
}

/** Subscribes `client` to `mentionCreated` and announces mentions until one arrives: it must be one of them. */
async function expectFirstMentionCreated(client: Client) {
  const results: any[] = [];
  client.subscribe({ query: 'subscription { mentionCreated { id } }' }, { next: (result) => results.push(result), error: (error) => results.push({ error }), complete: () => {} });
  const announced: string[] = [];
  for (let attempt = 0; attempt < 50 && results.length === 0; attempt++) {
    announced.push(...(await announceNew(mine, [relevantReddit])));
    for (let waited = 0; waited < 200 && results.length === 0; waited += 20) await sleep(20);
  }
  expect(results[0]).toEqual({ data: { mentionCreated: { id: expect.any(String) } } });
  expect(announced).toContain(results[0].data.mentionCreated.id);
}
const idsOf = (results: any[], field: string) => results.map((result) => result.data?.[field]?.id ?? JSON.stringify(result));

describe('mentionCreated(filter:)', () => {
  it("sends only the new mentions the list would show with that filter, and only the workspace's own", async () => {
    const created = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionCreated(filter: $filter) { id post { platform } relevant } }', {
      filter: { platforms: ['reddit'], relevant: true },
    });
    await untilLive(created.results, () => announceNew(mine, [relevantReddit]));

    await announceNew(mine, [{ platform: "x", score: { relevance: 90, sentiment: 'positive' } }, { platform: 'reddit' }, { platform: 'reddit', score: { relevance: 10, sentiment: 'neutral' } }]);
    await announceNew(theirs, [relevantReddit]);
    const [wanted] = await announceNew(mine, [relevantReddit]);
    await eventually(async () => created.results.length, (count) => count > 0, 10_000);
    await sleep(300);
    expect(created.results).toEqual([{ data: { mentionCreated: { id: wanted, post: { platform: 'reddit' }, relevant: true } } }]);
  });

  // Only connectionParams carried the key: a client sending it on the upgrade request, as plain WebSocket clients do, was refused unauthorized.
  it('takes the key from the upgrade request when the connection parameters carry none', async () => {
    class KeyedWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { authorization: `Bearer ${mine.key}` } });
      }
    }
    const client = createClient({ url: `${earshot.url.replace('http', 'ws')}/graphql`, webSocketImpl: KeyedWebSocket, retryAttempts: 0 });
    clients.push(client);
    await expectFirstMentionCreated(client);
  });

  // Apollo's and Hasura's clients put the header inside `headers`; the key there was refused unauthorized.
  it('takes the key from the headers object of the connection parameters', async () => {
    const client = createClient({
      url: `${earshot.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { headers: { Authorization: `Bearer ${mine.key}` } },
    });
    clients.push(client);
    await expectFirstMentionCreated(client);
  });

  it("takes a saved view's filters by viewId, narrowed by the filters given beside it, and refuses an unknown view", async () => {
    const view = await earshot.rest('POST', '/v1/views', { key: mine.key, body: { name: 'Relevant Reddit', filter: { platforms: ['reddit'], relevant: true } } });
    const created = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionCreated(filter: $filter) { id sentiment: classification { sentiment } } }', {
      filter: { viewId: view.body.id, sentiments: ['negative'] },
    });
    const negativeReddit = { platform: 'reddit' as const, score: { relevance: 90, sentiment: 'negative' as const } };
    await untilLive(created.results, () => announceNew(mine, [negativeReddit]));

    await announceNew(mine, [relevantReddit, { platform: 'x', score: { relevance: 90, sentiment: 'negative' } }, { platform: 'reddit', score: { relevance: 10, sentiment: 'negative' } }]);
    const [wanted] = await announceNew(mine, [negativeReddit]);
    await eventually(async () => created.results.length, (count) => count > 0, 10_000);
    await sleep(300);
    expect(idsOf(created.results, 'mentionCreated')).toEqual([wanted]);

    const refused = collect(mine.key, 'subscription { mentionCreated(filter: { viewId: "view_nothing" }) { id } }', {});
    expect(await refused.ended).toEqual({});
    expect(refused.results).toEqual([
      { data: { mentionCreated: null }, errors: [{ message: 'View not found', path: ['mentionCreated'], extensions: expect.objectContaining({ code: 'not_found', field: 'viewId' }) }] },
    ]);
  });

  it('refuses a malformed filter as the list does', async () => {
    const refused = collect(mine.key, 'subscription { mentionCreated(filter: { platforms: ["myspace"] }) { id } }', {});
    expect(await refused.ended).toEqual({});
    const listed = await earshot.graphql('{ mentions(filter: { platforms: ["myspace"] }) { nextCursor } }', {}, mine.key);
    const { message, extensions } = listed.body.errors[0];
    expect(extensions).toMatchObject({ code: 'validation_error', field: 'platforms.0' });
    expect(refused.results).toEqual([{ data: { mentionCreated: null }, errors: [{ message, path: ['mentionCreated'], extensions: { ...extensions, requestId: expect.stringMatching(/^req_/) } }] }]);
  });
});

describe('mentionUpdated(filter:)', () => {
  it('sends triage changes that leave a mention passing the filter', async () => {
    const [warmUp, ignored, doneOne, doneTwo] = await seedMentions(earshot.sql, mine.workspaceId, Array(4).fill({ keywordId: mine.keywordId, ...relevantReddit }));
    const [foreign] = await seedMentions(earshot.sql, theirs.workspaceId, [{ keywordId: theirs.keywordId, ...relevantReddit }]);
    const updated = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionUpdated(filter: $filter) { id status triage { note } } }', {
      filter: { status: 'done' },
    });
    let note = 0;
    await untilLive(updated.results, () => earshot.rest('PATCH', `/v1/mentions/${warmUp}`, { key: mine.key, body: { status: 'done', note: `warm-up ${++note}` } }));

    await earshot.rest('PATCH', `/v1/mentions/${ignored}`, { key: mine.key, body: { status: 'ignored' } });
    await earshot.rest('PATCH', `/v1/mentions/${foreign}`, { key: theirs.key, body: { status: 'done' } });
    await earshot.rest('POST', '/v1/mentions/bulk', { key: mine.key, body: { ids: [doneOne, doneTwo], changes: { status: 'done', note: 'handled' } } });
    await eventually(async () => updated.results.length, (count) => count >= 2, 10_000);
    await sleep(300);
    expect(idsOf(updated.results, 'mentionUpdated').sort()).toEqual([doneOne, doneTwo].sort());
    expect(updated.results.map((result) => result.data.mentionUpdated)).toContainEqual({ id: doneOne, status: 'done', triage: { note: 'handled' } });
  });

  it("sends a user's verdict that brings a mention into the filter, judged with the verdict written through", async () => {
    const [warmUp, rejected, recast, both] = await seedMentions(earshot.sql, mine.workspaceId, Array(4).fill({ keywordId: mine.keywordId, ...relevantReddit }));
    const updated = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionUpdated(filter: $filter) { id relevant classification { sentiment } } }', {
      filter: { relevant: false, sentiments: ['negative'] },
    });
    let note = 0;
    const verdict = { relevant: false, sentiment: 'negative' };
    await untilLive(updated.results, () => earshot.rest('PATCH', `/v1/mentions/${warmUp}`, { key: mine.key, body: { ...verdict, note: `warm-up ${++note}` } }));

    // Each verdict alone leaves the mention outside the filter; both together bring it in.
    await earshot.rest('PATCH', `/v1/mentions/${rejected}`, { key: mine.key, body: { relevant: false } });
    await earshot.rest('PATCH', `/v1/mentions/${recast}`, { key: mine.key, body: { sentiment: 'negative' } });
    await earshot.rest('PATCH', `/v1/mentions/${both}`, { key: mine.key, body: verdict });
    await eventually(async () => updated.results.length, (count) => count > 0, 10_000);
    await sleep(300);
    expect(updated.results).toEqual([{ data: { mentionUpdated: { id: both, relevant: false, classification: { sentiment: 'negative' } } } }]);
  });

  it('sends no event when a new mention is scored: it is announced scored, on mentionCreated(filter:)', async () => {
    const [warmUp] = await seedMentions(earshot.sql, mine.workspaceId, [{ keywordId: mine.keywordId, ...relevantReddit, text: 'The Rust borrow checker, again' }]);
    const filter = { relevant: true, q: 'BORROW CHECKER' };
    const updated = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionUpdated(filter: $filter) { id relevant } }', { filter });
    const created = collect(mine.key, 'subscription ($filter: MentionFilter) { mentionCreated(filter: $filter) { id relevant } }', { filter });
    let note = 0;
    await untilLive(updated.results, () => earshot.rest('PATCH', `/v1/mentions/${warmUp}`, { key: mine.key, body: { note: `warm-up ${++note}` } }));
    await untilLive(created.results, () => announceNew(mine, [{ ...relevantReddit, text: 'The Rust borrow checker, warming up' }]));

    // Stored unscored (and unbilled), then scored relevant by the real score job, which charges and announces it.
    const [scored] = await storeAndScore(earshot, mine.workspaceId, [{ post: redditPost(relevantRustPosts[1]), keywordIds: [mine.keywordId] }]);
    await eventually(async () => created.results.length, (count) => count > 0, 10_000);
    await sleep(300);
    expect(created.results).toEqual([{ data: { mentionCreated: { id: scored, relevant: true } } }]);
    expect(updated.results).toEqual([]);
  });
});

describe('a slow subscriber', () => {
  it('is dropped once more than 1,000 mentions wait for it, while announcing never waits', async () => {
    const slow = await mentionEvents(earshot.sql, mentionCreatedChannel, mine.workspaceId, {});
    let heard = 0;
    const witness = await earshot.sql.listen(mentionCreatedChannel, () => void heard++);
    const announced = Array.from({ length: 1_001 }, (_, i) => ({ id: `mm_slow${i}`, workspaceId: mine.workspaceId }));
    await announceMentionsCreated(earshot.sql, announced);
    // The witness listens after the subscription, so when it has heard them all the subscription has too.
    await eventually(async () => heard, (count) => count === announced.length);
    expect(heard).toBe(announced.length);
    await witness.unlisten();
    expect(await slow.next()).toEqual({ value: { error: expect.objectContaining({ extensions: { code: 'subscriber_too_slow' } }) }, done: false });
    expect(await slow.next()).toEqual({ value: undefined, done: true });

    const keeping = await mentionEvents(earshot.sql, mentionUpdatedChannel, mine.workspaceId, {});
    await keeping.return!();
    expect(await keeping.next()).toEqual({ value: undefined, done: true });
  });
});

describe('many subscribers in one process', () => {
  it('share one statement per announced batch, whatever their number and filters, and never load another workspace\'s mentions', async () => {
    const statements: { name: string; parameters: unknown[] }[] = [];
    // A pool of the test's own, to see each statement the subscriptions make.
    const counted = postgres(earshot.databaseUrl, {
      transform: { column: { from: postgres.toCamel } },
      onnotice: () => {},
      debug: (_connection, query, parameters) => statements.push({ name: /\/\* (\w+) \*\//.exec(query)?.[1] ?? query, parameters }),
    });
    await counted`select 1`;
    const everything = await Promise.all(Array.from({ length: 5 }, () => mentionEvents(counted, mentionCreatedChannel, mine.workspaceId, {})));
    const redditOnly = await Promise.all(Array.from({ length: 5 }, () => mentionEvents(counted, mentionCreatedChannel, mine.workspaceId, { platforms: ['reddit'] })));
    const neighbour = await mentionEvents(counted, mentionCreatedChannel, theirs.workspaceId, {});
    statements.length = 0;

    const [reddit, x] = await announceNew(mine, [relevantReddit, { platform: 'x', score: { relevance: 90, sentiment: 'positive' } }]);
    await announceNew(theirs, [relevantReddit]);
    const announced = (id: string, platform: string) => ({ value: { mention: expect.objectContaining({ id, platform, workspaceId: mine.workspaceId }) }, done: false });
    for (const subscription of everything) {
      expect(await subscription.next()).toEqual(announced(reddit, 'reddit'));
      expect(await subscription.next()).toEqual(announced(x, 'x'));
    }
    for (const subscription of redditOnly) expect(await subscription.next()).toEqual(announced(reddit, 'reddit'));
    // Theirs is loaded for their subscriber alone, by a statement of its own.
    await eventually(async () => statements.length, (made) => made > 1);
    const workspacesOf = (parameters: unknown[]) => [mine.workspaceId, theirs.workspaceId].filter((id) => parameters.includes(id));
    expect(statements.map(({ name, parameters }) => ({ name, workspaces: workspacesOf(parameters) }))).toEqual([
      { name: 'loadAnnouncedMentions', workspaces: [mine.workspaceId] },
      { name: 'loadAnnouncedMentions', workspaces: [theirs.workspaceId] },
    ]);

    await Promise.all([...everything, ...redditOnly, neighbour].map((subscription) => subscription.return!()));
    await counted.end();
  });
});

describe('one connection subscribing without end', () => {
  // Ten thousand subscriptions with their own filters on one socket took 1.8 GB and left other requests unanswered for half a minute.
  it('runs 100 operations at once; the next is refused alone with an error for its id, and taken again once one completes', async () => {
    const socket = new WebSocket(`${earshot.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${mine.key}` } }));
    await eventually(async () => messages.length, (count) => count === 1);
    const subscribe = (id: string, minRelevance: number) =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: 'subscription($f: MentionFilter) { mentionCreated(filter: $f) { id } }', variables: { f: { minRelevance } } } }));
    for (let index = 0; index <= 100; index++) subscribe(`s${index}`, index);
    await eventually(async () => messages.length, (count) => count === 2);
    await sleep(500);
    expect(messages).toEqual([
      { type: 'connection_ack' },
      {
        id: 's100',
        type: 'error',
        payload: [{ message: 'This connection already runs 100 operations, the most one may; complete one, or open another connection', extensions: { code: 'too_many_operations' } }],
      },
    ]);
    socket.send(JSON.stringify({ id: 's0', type: 'complete' }));
    socket.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ whoami { workspace { id } } }' } }));
    await eventually(async () => messages.length, (count) => count === 4);
    expect(messages.slice(2)).toEqual([{ id: 'q', type: 'next', payload: { data: { whoami: { workspace: { id: mine.workspaceId } } } } }, { id: 'q', type: 'complete' }]);
    socket.close();
  });
});

describe('clients subscribing alike through one gateway', () => {
  it('each get every event of the subscription they share, and one leaving ends it for no other', async () => {
    const query = 'subscription { mentionCreated { id keyword { term } } }';
    const [first, second] = [collect(mine.key, query, {}), collect(mine.key, query, {})];
    const other = collect(mine.key, 'subscription { mentionCreated { id } }', {});
    const warmUp = warmUps();
    for (const { results } of [first, second, other]) await untilLive(results, warmUp.announce);

    const [shown] = await announceNew(mine, [relevantReddit]);
    await eventually(async () => [first, second, other].every(({ results }) => warmUp.without(results).length > 0), Boolean);
    await sleep(300);
    expect([first.results, second.results, other.results].map(warmUp.without)).toEqual([
      [{ data: { mentionCreated: { id: shown, keyword: { term: 'Rust' } } } }],
      [{ data: { mentionCreated: { id: shown, keyword: { term: 'Rust' } } } }],
      [{ data: { mentionCreated: { id: shown } } }],
    ]);

    await clients.at(-3)!.dispose();
    expect(await first.ended).toEqual({});
    second.results.length = 0;
    const [later] = await announceNew(mine, [relevantReddit]);
    await eventually(async () => warmUp.without(second.results).length, (count) => count > 0, 10_000);
    expect(warmUp.without(second.results)).toEqual([{ data: { mentionCreated: { id: later, keyword: { term: 'Rust' } } } }]);
  });
});

describe('a credential that stops working', () => {
  // Spec 5.6 and 4.1: a revoked or expired key stops working; a subscription opened with one went on receiving mentions.
  it('ends the subscriptions it opened, revoked or expired, and no other', async () => {
    const query = 'subscription { mentionCreated { id } }';
    const revoked = (await earshot.rest('POST', '/v1/api-keys', { key: mine.key, body: { name: 'to revoke' } })).body;
    const expiring = (await earshot.rest('POST', '/v1/api-keys', { key: mine.key, body: { name: 'short-lived', expiresAt: new Date(Date.now() + 4000).toISOString() } })).body;
    const cut = collect(revoked.key, query, {});
    const lapsed = collect(expiring.key, query, {});
    const kept = collect(mine.key, query, {});
    const warmUp = warmUps();
    for (const { results } of [cut, lapsed, kept]) await untilLive(results, warmUp.announce);
    expect((await earshot.rest('DELETE', `/v1/api-keys/${revoked.id}`, { key: mine.key })).status).toBe(204);
    await sleep(Math.max(1100, Date.parse(expiring.expiresAt) - Date.now() + 100));
    // The revoked and the expired ones ended then, without waiting for an event.
    kept.results.length = 0;

    const [after] = await announceNew(mine, [relevantReddit]);
    await eventually(async () => warmUp.without(kept.results).length, (count) => count > 0, 10_000);
    const stopped = [{ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'unauthorized' }) })] }];
    expect(await cut.ended).toEqual({});
    expect(await lapsed.ended).toEqual({});
    expect([cut.results, lapsed.results, kept.results].map(warmUp.without)).toEqual([stopped, stopped, [{ data: { mentionCreated: { id: after } } }]]);
  });
});

describe('a credential that stops working while nothing happens', () => {
  // A revoked key's subscription stayed open and silent until a mention came, however long that took.
  it('ends the subscription at once when its key is revoked, and closes the connection 4403', async () => {
    const doomed = (await earshot.rest('POST', '/v1/api-keys', { key: mine.key, body: { name: 'revoked while idle', scope: 'read' } })).body;
    const live = await rawSubscription(earshot, { bearer: doomed.key });
    const revokedAt = Date.now();
    expect((await earshot.rest('DELETE', `/v1/api-keys/${doomed.id}`, { key: mine.key })).status).toBe(204);
    expect(await live.closed).toEqual(endedByCredential.closed);
    expect(Date.now() - revokedAt).toBeLessThan(3000);
    expect(live.messages).toEqual(endedByCredential.messages);
  });

  it('ends it at its expiry, and leaves the subscriptions of other keys open', async () => {
    const expiring = (await earshot.rest('POST', '/v1/api-keys', { key: mine.key, body: { name: 'lapsing while idle', expiresAt: new Date(Date.now() + 4000).toISOString() } })).body;
    const lapsing = await rawSubscription(earshot, { bearer: expiring.key });
    const kept = await rawSubscription(earshot, { bearer: mine.key });
    expect(await lapsing.closed).toEqual(endedByCredential.closed);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiring.expiresAt));
    expect(lapsing.messages.map((message) => message.type)).toEqual(['connection_ack', 'next', 'complete']);
    expect(kept.messages).toEqual([{ type: 'connection_ack' }]);
    expect(kept.socket.readyState).toBe(WebSocket.OPEN);
    kept.socket.close();
  });
});

describe('a database that fails a subscription', () => {
  it('ends it with service_unavailable, as a query is answered', async () => {
    const created = collect(mine.key, 'subscription { mentionCreated { id } }', {});
    await untilLive(created.results, () => announceNew(mine, [relevantReddit]));
    const ids = await seedMentions(earshot.sql, mine.workspaceId, [{ keywordId: mine.keywordId, ...relevantReddit }]);

    // The subscription's statement waits behind a lock; its connection is then cut, as a database going away cuts it.
    const locker = await earshot.sql.reserve();
    await locker`begin`;
    await locker`lock table mentions in access exclusive mode`;
    await announceMentionsCreated(earshot.sql, ids.map((id) => ({ id, workspaceId: mine.workspaceId })));
    const [waiting] = await eventually(
      () => earshot.sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%/* loadAnnouncedMentions */%' and pid <> pg_backend_pid()`,
      (rows) => rows.length > 0,
    );
    await earshot.sql`select pg_terminate_backend(${waiting.pid})`;
    await locker`rollback`;
    locker.release();

    expect(await created.ended).toEqual({});
    expect(created.results).toEqual([
      { data: { mentionCreated: null }, errors: [{ message: 'The database is not available; retry shortly', path: ['mentionCreated'], extensions: { code: 'service_unavailable', retryAfterSeconds: 5, serviceName: 'mentions', requestId: expect.stringMatching(/^req_/) } }] },
    ]);
  });
});

describe('through a gateway whose subgraphs are processes of their own', () => {
  const roles: TestEarshot[] = [];
  afterAll(() => Promise.all(roles.map((role) => role.stop())));

  // A subgraph process's first statement may be the one deciding a subscription's first event; it holds an array.
  it('delivers the first event as it does in one process', async () => {
    for (const name of subgraphNames) roles.push(await startTestEarshot({}, { role: `subgraph:${name}`, databaseUrl: earshot.databaseUrl }));
    const subgraphUrls = Object.fromEntries(subgraphNames.map((name, i) => [name, roles[i].url]));
    const gateway = await startTestEarshot({ subgraphUrls }, { role: 'gateway', databaseUrl: earshot.databaseUrl });
    roles.push(gateway);
    const client = gateway.subscribe(mine.key);
    clients.push(client);
    await expectFirstMentionCreated(client);
  });
});
