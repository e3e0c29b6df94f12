import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { chargeMatchedItem, chargeMatchedItems, type ChargeOutcome, type MatchedItemCharge } from '../subgraphs/billing/charging.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { keywordDayFifteenths } from '../subgraphs/billing/prices.ts';
import type { KeywordRow } from '../subgraphs/keywords/keyword-store.ts';
import { addKeywords, eventsOf, keywordRow, leaveInWallet, newWorkspace, wallet } from './billing-seed.ts';
import { createTestDatabase } from './harness.ts';

let databaseUrl: string;
let sql: Sql;
const pools: Sql[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  sql = connect(databaseUrl, { max: 4 });
});
afterAll(() => Promise.all([sql, ...pools].map((pool) => pool?.end())));

/** Another worker: a connection pool of its own on the same database. */
function worker(): Sql {
  const pool = connect(databaseUrl, { max: 5 });
  pools.push(pool);
  return pool;
}

const day = '2028-03-08';
const today = new Date(`${day}T10:00:00.000Z`);
/** The next day, which the daily tick has not settled: its keyword days are pending. */
const tomorrow = new Date('2028-03-09T10:00:00.000Z');

/** A workspace past its welcome credit ($20 paid: wallet.low at $4), its keyword days charged for `day`, left with `effective` to spend that day. */
async function paidWorkspace(keywordCaps: (Record<string, unknown> | null)[], effective: number) {
  const { workspaceId } = await newWorkspace(sql);
  await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: today });
  const keywords: KeywordRow[] = [];
  for (const [k, cap] of keywordCaps.entries()) keywords.push(...(await addKeywords(sql, workspaceId, 1, { term: `keyword ${k}`, cap })));
  await chargeDailyKeywordFees(sql, day);
  await leaveInWallet(sql, workspaceId, effective);
  return { workspaceId, keywords };
}

/** mulberry32: a small seeded generator, so a failing sequence can be replayed from its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Two workspaces: the first a little above its wallet.low line, the second
 * with five items' worth left (already under the line). Each has a keyword
 * capped at 3 a day, one at 5 a month, one without a cap and a muted one.
 */
async function world() {
  const caps = [{ mentions: 3, per: 'day' }, { mentions: 5, per: 'month' }, null, null];
  const nearLow = await paidWorkspace(caps, 6_000 + 4 * 12 + 5);
  const small = await paidWorkspace(caps, 5 * 12 + 7);
  for (const { keywords } of [nearLow, small]) await sql`update keywords set muted = true where id = ${keywords[3].id}`;
  return [nearLow, small];
}

/** An item in terms any world can resolve: which workspace and keyword, which item, which day. */
interface AbstractItem {
  workspace: number;
  /** The keyword's workspace: another than `workspace` sometimes, which is refused as muted. */
  keywordWorkspace: number;
  keyword: number;
  kind: 'mention' | 'comment';
  item: number;
  at: Date;
}

/** `count` random items numbered from `first`; about one in six names again an item of `earlier` or of its own. */
function randomItems(random: () => number, count: number, first: number, earlier: readonly AbstractItem[]): AbstractItem[] {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  const items: AbstractItem[] = [];
  for (let i = 0; i < count; i++) {
    const workspace = random() < 0.6 ? 0 : 1;
    const seen = [...earlier, ...items];
    const repeat = seen.length > 0 && random() < 0.15 ? pick(seen) : null;
    items.push({
      workspace,
      keywordWorkspace: random() < 0.05 ? 1 - workspace : workspace,
      keyword: pick([0, 0, 1, 1, 2, 2, 3]),
      kind: repeat?.kind ?? (random() < 0.8 ? 'mention' : 'comment'),
      item: repeat?.item ?? first + i,
      at: random() < 0.8 ? today : tomorrow,
    });
  }
  return items;
}

type World = Awaited<ReturnType<typeof world>>;

function resolve(world: World, tag: string, item: AbstractItem): MatchedItemCharge {
  return {
    workspaceId: world[item.workspace].workspaceId,
    keywordId: world[item.keywordWorkspace].keywords[item.keyword].id,
    kind: item.kind,
    itemId: `${tag}_${item.item}`,
    at: item.at,
  };
}

/** What charging left behind, with keyword ids replaced by their place in the world so two worlds compare. */
async function aftermath(world: World) {
  const label = new Map(world.flatMap(({ keywords }, w) => keywords.map((keyword, k) => [keyword.id, `w${w}k${k}`] as const)));
  const relabel = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'string' && label.has(v) ? label.get(v) : v)));
  return Promise.all(
    world.map(async ({ workspaceId, keywords }) => {
      const { balanceFifteenths, lowRecordedEpoch } = await wallet(sql, workspaceId);
      const keywordStates = await Promise.all(
        keywords.map(async (keyword) => {
          const { pausedForCap, muted } = await keywordRow(sql, keyword.id);
          const counts = await sql`select day::text, items from keyword_charged_items where keyword_id = ${keyword.id} order by day`;
          return { pausedForCap, muted, counts: [...counts] };
        }),
      );
      return relabel({ balanceFifteenths, lowRecordedEpoch, keywordStates, events: await eventsOf(sql, workspaceId) });
    }),
  );
}

describe('chargeMatchedItems', () => {
  it('gives the outcomes, ledger, caps and events of charging the same items one by one', async () => {
    const seen = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const random = seededRandom(seed);
      const prior = randomItems(random, 4, 0, []);
      const items = randomItems(random, 40, prior.length, prior);
      const [oneByOne, batched] = [await world(), await world()];
      const [oneByOneTag, batchedTag] = [newId('one'), newId('batch')];
      for (const [target, tag] of [[oneByOne, oneByOneTag], [batched, batchedTag]] as const) {
        for (const item of prior) await sql.begin((tx) => chargeMatchedItem(tx, resolve(target, tag, item)));
      }

      const expected: ChargeOutcome[] = [];
      for (const item of items) expected.push((await sql.begin((tx) => chargeMatchedItem(tx, resolve(oneByOne, oneByOneTag, item)))) as ChargeOutcome);
      const outcomes = (await sql.begin((tx) => chargeMatchedItems(tx, items.map((item) => resolve(batched, batchedTag, item))))) as ChargeOutcome[];

      expect(outcomes, `seed ${seed}`).toEqual(expected);
      expect(await aftermath(batched), `seed ${seed}`).toEqual(await aftermath(oneByOne));
      // The ledger's trigger kept every balance and every keyword-day count equal to the rows, bulk insert included.
      expect(await ledgerBalanceMismatches(sql)).toEqual([]);
      const uncounted = await sql`
        select l.keyword_id, l.day, l.items, c.items as counted
        from (select keyword_id, (occurred_at at time zone 'UTC')::date as day, count(*)::int as items
              from ledger_entries where kind in ('mention', 'comment') group by 1, 2) l
        full join keyword_charged_items c on c.keyword_id = l.keyword_id and c.day = l.day
        where c.items is distinct from l.items`;
      expect([...uncounted]).toEqual([]);
      for (const outcome of outcomes) seen.add(outcome.charged ? 'charged' : outcome.reason);
      for (const { name } of (await aftermath(batched)).flatMap((state) => (state as { events: { name: string }[] }).events)) seen.add(name);
    }
    // The sequences reach every rule, so the comparison above says something about each.
    expect([...seen].sort()).toEqual([
      'already_charged',
      'capped',
      'charged',
      'insufficient_balance',
      'keyword.capped',
      'keyword.paused_for_balance',
      'muted',
      'wallet.low',
      'wallet.paused',
    ]);
  });

  it('answers one outcome per item, in order, and nothing for no items', async () => {
    const [{ workspaceId, keywords }] = await world();
    const item = (keyword: KeywordRow, itemId: string) => ({ workspaceId, keywordId: keyword.id, kind: 'mention' as const, itemId, at: today });
    const outcomes = await sql.begin((tx) =>
      chargeMatchedItems(tx, [item(keywords[3], 'mm_muted'), item(keywords[2], 'mm_kept'), item(keywords[2], 'mm_kept')]),
    );
    expect(outcomes).toEqual([
      { charged: false, reason: 'muted' },
      { charged: true },
      { charged: false, reason: 'already_charged' },
    ]);
    expect(await sql.begin((tx) => chargeMatchedItems(tx, []))).toEqual([]);
  });
});

describe('batches from two connections at once', () => {
  /** Runs the batches from two pools, alternately, all at once. */
  function chargeConcurrently(batches: MatchedItemCharge[][]): Promise<ChargeOutcome[]> {
    const [first, second] = [worker(), worker()];
    return Promise.all(batches.map((batch, i) => (i % 2 ? first : second).begin((tx) => chargeMatchedItems(tx, batch)) as Promise<ChargeOutcome[]>)).then(
      (outcomes) => outcomes.flat(),
    );
  }

  const mentions = (workspaceId: string, keywordIds: string[], count: number): MatchedItemCharge[] =>
    Array.from({ length: count }, (_, i) => ({ workspaceId, keywordId: keywordIds[i % keywordIds.length], kind: 'mention', itemId: newId('mm'), at: today }));

  it('never take a keyword past its cap', async () => {
    const { workspaceId, keywords } = await paidWorkspace([{ mentions: 5, per: 'month' }], 100_000);
    const outcomes = await chargeConcurrently(Array.from({ length: 8 }, () => mentions(workspaceId, [keywords[0].id], 6)));
    expect(outcomes.filter((outcome) => outcome.charged)).toHaveLength(5);
    expect(outcomes.filter((outcome) => !outcome.charged && outcome.reason === 'capped')).toHaveLength(43);
    expect((await sql`select count(*)::int as items from ledger_entries where keyword_id = ${keywords[0].id} and kind = 'mention'`)[0].items).toBe(5);
    expect((await eventsOf(sql, workspaceId)).filter((event) => event.name === 'keyword.capped')).toHaveLength(1);
  });

  it('never charge past the item that leaves the wallet short of a day of its keywords, and pause it once', async () => {
    // A day of both keywords and three items' worth less a fifteenth: the third item pauses the wallet.
    const { workspaceId, keywords } = await paidWorkspace([null, null], 2 * keywordDayFifteenths + 3 * 12 - 1);
    const ids = keywords.map((keyword) => keyword.id);
    const outcomes = await chargeConcurrently(Array.from({ length: 8 }, () => mentions(workspaceId, ids, 4)));
    expect(outcomes.filter((outcome) => outcome.charged)).toHaveLength(3);
    expect(outcomes.filter((outcome) => !outcome.charged && outcome.reason === 'muted')).toHaveLength(29);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(2 * keywordDayFifteenths - 1);
    expect((await eventsOf(sql, workspaceId)).map((event) => event.name).sort()).toEqual([
      'keyword.paused_for_balance',
      'keyword.paused_for_balance',
      'wallet.low',
      'wallet.paused',
    ]);
  });

  it('do not deadlock when each spans two workspaces, in either order', async () => {
    const a = await paidWorkspace([null, null], 100_000);
    const b = await paidWorkspace([null, null], 100_000);
    const spanning = (first: typeof a, second: typeof a) => [
      ...mentions(first.workspaceId, first.keywords.map((keyword) => keyword.id), 3),
      ...mentions(second.workspaceId, second.keywords.map((keyword) => keyword.id), 3),
    ];
    const batches = Array.from({ length: 20 }, (_, i) => (i % 2 ? spanning(a, b) : spanning(b, a)));
    const outcomes = await chargeConcurrently(batches);
    expect(outcomes.every((outcome) => outcome.charged)).toBe(true);
    expect(outcomes).toHaveLength(120);
    for (const { workspaceId } of [a, b]) expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(100_000 - 60 * 12);
  });
});
