import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intents, sentiments } from '../vocabulary/classification-values.ts';
import { announceMentionsCreated } from '../subgraphs/mentions/mention-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { type MentionSeed, seedMentions } from './mention-seeds.ts';

/**
 * For random filters, the list (GraphQL), the CSV export (REST query
 * parameters) and a `mentionCreated` subscription (graphql-ws) show the
 * same mentions: one definition of each filter behind all three.
 */

const seed = 20_261_122;
const runs = 40;

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let keywordIds: string[];
let ownerId: string;
let ruleId: string;
let dataset: string[];
/** People of the dataset's first mentions, the first four muted. */
let personIds: string[];

const dates = ['2026-01-05T08:00:00.000Z', '2026-02-10T12:30:00.000Z', '2026-03-15T18:00:00.000Z', '2026-04-20T23:59:59.000Z'];
const names = ['Ann', 'Bob', 'Cy'];

const mentionSeed = (keywords: string[], assignee: string) =>
  fc.record({
    keywordId: fc.constantFrom(...keywords),
    platform: fc.constantFrom('reddit' as const, 'hackernews' as const, 'x' as const, 'bluesky' as const),
    text: fc.constantFrom('Acme rocks', 'acme_fan 100% sure', 'WIDGET news', 'nothing here', 'Acme vs Widget'),
    links: fc.subarray(['https://www.github.com/a', 'https://docs.github.com/b', 'https://gitlab.com/c', 'https://acme.dev/d']),
    replyTo: fc.constantFrom(null, 'parent'),
    publishedAt: fc.constantFrom(...dates).map((date) => new Date(date)),
    author: fc.record({
      name: fc.constantFrom(...names),
      followers: fc.constantFrom(null, 0, 10, 500, 5000),
      tags: fc.subarray(['vip', 'customer']),
    }).map((author) => ({ ...author, handle: author.name.toLowerCase(), url: `https://example.com/u/${author.name.toLowerCase()}` })),
    score: fc.option(
      fc.record({
        relevance: fc.constantFrom(10, 39, 40, 75, 95),
        sentiment: fc.constantFrom(...sentiments),
        intents: fc.subarray([...intents], { maxLength: 2 }),
        automated: fc.constantFrom(true, false, null),
        language: fc.constantFrom('en', 'de', null),
        priority: fc.integer({ min: 0, max: 100 }),
      }),
      { nil: undefined },
    ),
    verdict: fc.option(fc.record({ relevant: fc.constantFrom(true, false, null), sentiment: fc.constantFrom(null, ...sentiments) }), { nil: undefined }),
    triage: fc.record({
      status: fc.constantFrom('open' as const, 'done' as const, 'ignored' as const),
      assigneeId: fc.constantFrom(null, assignee),
      snoozedUntil: fc.constantFrom(null, new Date(Date.now() + 86_400_000), new Date(Date.now() - 86_400_000)),
    }),
  }) as fc.Arbitrary<MentionSeed>;

beforeAll(async () => {
  earshot = await startTestEarshot({ rateLimitPerMinute: 100_000 });
  const created = await provisionWorkspace(earshot.sql, 'Agreement', { ownerEmail: 'owner@agreement.example' });
  key = created.apiKey;
  workspaceId = created.workspace.id;
  ownerId = created.owner!.id;
  keywordIds = [];
  for (const term of ['Acme', 'Widget']) keywordIds.push((await earshot.rest('POST', '/v1/keywords', { key, body: { term, platforms: [] } })).body.id);
  // Only a scored mention takes a verdict, as PATCH allows.
  const seeds = fc.sample(mentionSeed(keywordIds, ownerId), { seed, numRuns: 40 }).map((one) => (one.score ? one : { ...one, verdict: undefined }));
  dataset = await seedMentions(earshot.sql, workspaceId, seeds);
  ruleId = (await earshot.rest('POST', '/v1/alerts', { key, body: { name: 'Unhappy', event: 'mention.negative' } })).body.id;
  // Every seeded post has an author of its own, so a person of its own: mute some, name a muted and an unmuted one.
  const personOf = async (mentionId: string) =>
    (await earshot.graphql('query ($id: ID!) { mention(id: $id) { person { id } } }', { id: mentionId }, key)).body.data.mention.person.id as string;
  personIds = await Promise.all(dataset.slice(0, 8).map(personOf));
  for (const personId of personIds.slice(0, 4)) await earshot.rest('PATCH', `/v1/people/${personId}`, { key, body: { muted: true } });
}, 60_000);
afterAll(() => earshot?.stop());

/** A filter of one to three parameters, with values the dataset holds (and some it does not). */
const filterArbitrary = () => {
  const some = <T>(values: T[]) => fc.subarray(values, { minLength: 1 });
  const instant = fc.constantFrom(...dates).chain((date) => fc.constantFrom(date, String(Date.parse(date)), date.replace('Z', '+00:00')));
  const parameters: Record<string, fc.Arbitrary<unknown>> = {
    keywordId: fc.constantFrom(...keywordIds),
    keywordIds: some(keywordIds),
    notKeywordIds: some(keywordIds),
    platform: fc.constantFrom('reddit', 'x', 'youtube'),
    platforms: some(['reddit', 'hackernews', 'x', 'youtube']),
    notPlatforms: some(['reddit', 'hackernews', 'bluesky']),
    status: fc.constantFrom('open', 'done', 'ignored'),
    relevant: fc.boolean(),
    sentiment: fc.constantFrom(...sentiments),
    sentiments: some([...sentiments]),
    notSentiments: some([...sentiments]),
    intent: fc.constantFrom(...intents),
    intents: some([...intents]),
    notIntents: some([...intents]),
    automated: fc.boolean(),
    personId: fc.constantFrom(personIds[0], personIds[5], 'per_nobody'),
    includeMuted: fc.boolean(),
    assigneeId: fc.constant(ownerId),
    snoozed: fc.boolean(),
    excludeAuthors: some(['Ann', '@bob', 'CY', 'https://example.com/u/ann/']),
    minRelevance: fc.constantFrom(0, 40, 75, 96),
    minFollowers: fc.constantFrom(0, 10, 500, 6000),
    maxFollowers: fc.constantFrom(0, 10, 500, 6000),
    isReply: fc.boolean(),
    alertId: fc.constant(ruleId),
    tags: some(['vip', 'customer', 'VIP']),
    notTags: some(['vip', 'customer']),
    linkHosts: some(['github.com', 'www.github.com', 'docs.github.com', 'acme.dev', 'example.org']),
    notLinkHosts: some(['github.com', 'gitlab.com']),
    languages: some(['en', 'de', 'fr']),
    notLanguages: some(['en', 'de']),
    q: fc.constantFrom('acme', 'ACME', '100%', '_', 'e_f', 'widget', 'bob'),
    since: instant,
    until: instant,
  };
  return fc
    .uniqueArray(fc.constantFrom(...Object.keys(parameters)), { minLength: 1, maxLength: 3 })
    .chain((chosen) => fc.record(Object.fromEntries(chosen.map((name) => [name, parameters[name]]))) as fc.Arbitrary<Record<string, unknown>>);
};

/** The filter as REST query parameters: lists repeated or comma-separated. */
function queryOf(filter: Record<string, unknown>, repeatLists: boolean): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (!Array.isArray(value)) query.append(name, String(value));
    else if (repeatLists) for (const item of value) query.append(name, item);
    else query.append(name, value.join(','));
  }
  return query.toString();
}

async function listed(filter: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const answer = await earshot.graphql(
      'query ($filter: MentionFilter, $after: String) { mentions(filter: $filter, first: 7, after: $after) { nodes { id } nextCursor } }',
      { filter, after },
      key,
    );
    expect(answer.body.errors, JSON.stringify(filter)).toBeUndefined();
    ids.push(...answer.body.data.mentions.nodes.map((node: { id: string }) => node.id));
    after = answer.body.data.mentions.nextCursor;
  } while (after);
  return ids;
}

async function exported(filter: Record<string, unknown>, repeatLists: boolean): Promise<string[]> {
  // Each run is one export; the workspace's count of the last minute is cleared so the rate limit does not end the run.
  await earshot.sql`delete from mention_exports where workspace_id = ${workspaceId}`;
  const response = await fetch(`${earshot.url}/v1/mentions/export.csv?${queryOf(filter, repeatLists)}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  return (parse(text) as string[][]).slice(1).map((row) => row[0]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The ids a `mentionCreated` subscription with the filter sends when every
 * mention of the dataset is announced. `marker`, a mention the list shows,
 * is announced until the subscription is live, and again after the dataset:
 * once it is back, everything before it was decided.
 */
async function subscribed(filter: Record<string, unknown>, marker: string): Promise<string[]> {
  const client = earshot.subscribe(key);
  const received: string[] = [];
  try {
    client.subscribe(
      { query: 'subscription ($filter: MentionFilter) { mentionCreated(filter: $filter) { id } }', variables: { filter } },
      { next: (result: any) => received.push(result.data?.mentionCreated?.id ?? JSON.stringify(result)), error: () => {}, complete: () => {} },
    );
    const announce = (ids: string[]) => announceMentionsCreated(earshot.sql, ids.map((id) => ({ id, workspaceId })));
    for (let attempt = 0; attempt < 50 && received.length === 0; attempt++) {
      await announce([marker]);
      for (let waited = 0; waited < 200 && received.length === 0; waited += 20) await sleep(20);
    }
    expect(received.length).toBeGreaterThan(0);
    // A warm-up announced twice may still be on its way.
    await sleep(300);
    const warmUps = received.length;
    await announce(dataset);
    // A second transaction: PostgreSQL delivers a notification repeated within one transaction once.
    await announce([marker]);
    const done = await eventually(
      async () => received.slice(warmUps).filter((id) => id === marker).length,
      (markers) => markers >= 2,
      10_000,
    );
    expect(done).toBe(2);
    return received.slice(warmUps).slice(0, received.lastIndexOf(marker) - warmUps);
  } finally {
    await client.dispose();
  }
}

describe('the list, the export and a subscription agree', () => {
  it('for random filters', async () => {
    let subscriptionsChecked = 0;
    await fc.assert(
      fc.asyncProperty(filterArbitrary(), fc.boolean(), async (filter, repeatLists) => {
        const fromList = await listed(filter);
        const fromExport = await exported(filter, repeatLists);
        expect(fromExport, JSON.stringify(filter)).toEqual(fromList);
        if (fromList.length === 0) return;
        // The list's defaults made explicit: a subscription takes none of its own.
        const fromSubscription = await subscribed({ relevant: true, snoozed: false, ...filter }, fromList[0]);
        expect([...fromSubscription].sort(), JSON.stringify(filter)).toEqual([...fromList].sort());
        subscriptionsChecked++;
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    expect(subscriptionsChecked).toBeGreaterThanOrEqual(10);
  }, 300_000);
});
