import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceMentionsCreated } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { account, classify, postBy, seedWorkspace, type SeededWorkspace, storePosts } from './people-seed.ts';

/**
 * The people filters of spec 4.3 (issue 14 point 1): `personId` (every
 * account merged into the person; implies `includeMuted`) and
 * `includeMuted` (muted people's mentions stay out unless asked for), on
 * the REST list, GraphQL, the CSV export and a live subscription.
 */

let earshot: TestEarshot;
let w: SeededWorkspace;
const letterOf = new Map<string, string>();
const people: Record<string, string> = {};
let elsewhere: string;

const personOf = async (key: string, mentionId: string) =>
  (await earshot.graphql('query ($id: ID!) { mention(id: $id) { person { id } } }', { id: mentionId }, key)).body.data.mention.person.id as string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  w = await seedWorkspace(earshot, 'people-filters');
  const ada = { links: ['https://ada.example'] };
  const seeds: [string, ReturnType<typeof account>][] = [
    // Two accounts linking the same personal site: one person.
    ['A1', account('github', 'ada', ada)],
    ['A2', account('x', 'ada_x', ada)],
    ['B1', account('reddit', 'bob')],
    ['B2', account('reddit', 'bob')],
    ['C1', account('hackernews', 'cy')],
  ];
  for (const [letter, author] of seeds) {
    const [id] = await storePosts(earshot, w, [postBy(author, `Acme post ${letter}`)]);
    await classify(earshot, id, { relevance: 90, sentiment: 'positive' });
    letterOf.set(id, letter);
  }
  const idOf = (letter: string) => [...letterOf].find(([, each]) => each === letter)![0];
  people.ada = await personOf(w.key, idOf('A1'));
  expect(await personOf(w.key, idOf('A2'))).toBe(people.ada);
  people.bob = await personOf(w.key, idOf('B1'));
  const muted = await earshot.rest('PATCH', `/v1/people/${people.bob}`, { key: w.key, body: { muted: true } });
  expect(muted.body.muted).toBe(true);

  // Bob seen by another workspace is a person there: naming that person here shows nothing.
  const other = await seedWorkspace(earshot, 'people-filters-other');
  const [theirs] = await storePosts(earshot, other, [postBy(account('reddit', 'bob'), 'Acme elsewhere')]);
  elsewhere = await personOf(other.key, theirs);
}, 60_000);
afterAll(() => earshot?.stop());

const lettersOf = (ids: string[]) => ids.map((id) => letterOf.get(id) ?? `?${id}`).sort().join(' ');

async function listed(query: string): Promise<string> {
  const answer = await earshot.rest('GET', `/v1/mentions?limit=100${query ? `&${query}` : ''}`, { key: w.key });
  expect(answer.status, `${query}: ${JSON.stringify(answer.body)}`).toBe(200);
  return lettersOf(answer.body.data.map((mention: { id: string }) => mention.id));
}

async function exported(query: string): Promise<string> {
  const response = await fetch(`${earshot.url}/v1/mentions/export.csv${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${w.key}` } });
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  return lettersOf((parse(text) as string[][]).slice(1).map((row) => row[0]));
}

describe('personId and includeMuted', () => {
  const table = (): [string, Record<string, unknown>, string][] => [
    ['', {}, 'A1 A2 C1'],
    ['includeMuted=false', { includeMuted: false }, 'A1 A2 C1'],
    ['includeMuted=true', { includeMuted: true }, 'A1 A2 B1 B2 C1'],
    [`personId=${people.ada}`, { personId: people.ada }, 'A1 A2'],
    // personId implies includeMuted, even beside includeMuted=false.
    [`personId=${people.bob}`, { personId: people.bob }, 'B1 B2'],
    [`personId=${people.bob}&includeMuted=false`, { personId: people.bob, includeMuted: false }, 'B1 B2'],
    [`personId=${people.ada}&platforms=x`, { personId: people.ada, platforms: ['x'] }, 'A2'],
    ['personId=per_nobody', { personId: 'per_nobody' }, ''],
    [`personId=${elsewhere}`, { personId: elsewhere }, ''],
  ];

  it('on GET /v1/mentions, the same in GraphQL and in the CSV export', async () => {
    const failures: string[] = [];
    for (const [query, filter, expected] of table()) {
      const rest = await listed(query);
      const answer = await earshot.graphql('query ($filter: MentionFilter) { mentions(filter: $filter, first: 100) { nodes { id } } }', { filter }, w.key);
      expect(answer.body.errors, query).toBeUndefined();
      const graphql = lettersOf(answer.body.data.mentions.nodes.map((node: { id: string }) => node.id));
      // Each export counts against the 6 a minute; the workspace's count is cleared so the table is not cut short.
      await earshot.sql`delete from mention_exports where workspace_id = ${w.workspaceId}`;
      const csv = await exported(query);
      for (const [where, got] of [['REST', rest], ['GraphQL', graphql], ['export', csv]]) {
        if (got !== expected) failures.push(`${where} ${query}: expected [${expected}], got [${got}]`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('brings muted people back when they are unmuted', async () => {
    expect((await earshot.rest('PATCH', `/v1/people/${people.bob}`, { key: w.key, body: { muted: false } })).body.muted).toBe(false);
    try {
      expect(await listed('')).toBe('A1 A2 B1 B2 C1');
    } finally {
      await earshot.rest('PATCH', `/v1/people/${people.bob}`, { key: w.key, body: { muted: true } });
    }
    expect(await listed('')).toBe('A1 A2 C1');
  });

  it('refuses a malformed value naming the parameter', async () => {
    for (const [query, field] of [['includeMuted=yes', 'includeMuted'], ['personId=', 'personId'], [`personId=${'p'.repeat(101)}`, 'personId']]) {
      const answer = await earshot.rest('GET', `/v1/mentions?${query}`, { key: w.key });
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toEqual({ error: { code: 'validation_error', field, message: expect.any(String), requestId: expect.any(String) } });
    }
  });

  it('on mentionCreated: muted people stay out without a filter, and personId brings them in', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const ids = Object.fromEntries([...letterOf].map(([id, letter]) => [letter, id]));
    const announce = (letters: string[]) => announceMentionsCreated(earshot.sql, letters.map((letter) => ({ id: ids[letter], workspaceId: w.workspaceId })));
    const cases: [Record<string, unknown> | null, string, string[]][] = [
      [null, 'C1', ['A1', 'C1']],
      [{ personId: people.bob }, 'B2', ['B1', 'B2']],
      [{ includeMuted: true }, 'C1', ['A1', 'B1', 'C1']],
    ];
    for (const [filter, marker, expected] of cases) {
      const client = earshot.subscribe(w.key);
      const received: string[] = [];
      try {
        client.subscribe(
          { query: 'subscription ($filter: MentionFilter) { mentionCreated(filter: $filter) { id } }', variables: { filter } },
          { next: (result: any) => received.push(letterOf.get(result.data?.mentionCreated?.id) ?? JSON.stringify(result)), error: () => {}, complete: () => {} },
        );
        // Live once the marker (a mention it shows) comes back.
        for (let attempt = 0; attempt < 50 && received.length === 0; attempt++) {
          await announce([marker]);
          for (let waited = 0; waited < 200 && received.length === 0; waited += 20) await sleep(20);
        }
        await sleep(300);
        received.length = 0;
        // Decided in the order announced: once the marker, announced last, is back, the others are decided.
        await announce(['B1', 'A1', 'C1'].filter((letter) => letter !== marker));
        await announce([marker]);
        for (let waited = 0; waited < 10_000 && !received.includes(marker); waited += 20) await sleep(20);
        expect([...received].sort(), JSON.stringify(filter)).toEqual(expected);
      } finally {
        await client.dispose();
      }
    }
  });
});
