import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { type IngestOutcome, ingestPosts } from '../jobs/ingest-posts.ts';
import { manualClock } from '../runtime/clock.ts';
import { connect, connectWithArrayTypes, type Sql } from '../runtime/database.ts';
import { createLogger } from '../runtime/logger.ts';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { chargeDailyKeywordFees } from '../subgraphs/billing/daily-tick.ts';
import type { KeywordRow } from '../subgraphs/keywords/keyword-store.ts';
import type { MatchablePost } from '../subgraphs/keywords/matching/prepared-post.ts';
import { chargeMatchedItems } from '../subgraphs/billing/charging.ts';
import { ledgerBalanceMismatches } from '../subgraphs/billing/ledger-store.ts';
import { keywordDayFifteenths } from '../subgraphs/billing/prices.ts';
import { mentionCreatedChannel, mentionUpdatedChannel, readStoredMentions, type StoredMention, storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { recordScores } from '../subgraphs/mentions/mention-scoring.ts';
import { addKeywords, eventsOf, keywordRow, leaveInWallet, newWorkspace, wallet } from './billing-seed.ts';
import { createTestDatabase, eventually } from './harness.ts';

const clock = manualClock(new Date('2028-03-08T10:00:00.000Z'));
let databaseUrl: string;
let sql: Sql;
const pools: Sql[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  sql = connect(databaseUrl, { max: 4 });
});
afterAll(() => Promise.all([sql, ...pools].map((pool) => pool?.end())));

/** A worker of its own: ingestion as a poll job runs it, on its own connection pool. */
function worker() {
  const pool = connect(databaseUrl, { max: 3 });
  pools.push(pool);
  return { sql: pool, clock, log: createLogger('silent'), send: async () => null };
}

/** A scoring worker of its own, on its own pool, its array types learned (its first statement carries an array). */
async function scorer(): Promise<Sql> {
  const pool = await connectWithArrayTypes(databaseUrl, { max: 3 });
  pools.push(pool);
  return pool;
}

/** A paid workspace whose keywords (one per term) have had today's keyword day. */
async function workspaceWith(terms: string[], cap?: { mentions: number; per: 'day' | 'month' }) {
  const { workspaceId } = await newWorkspace(sql);
  await creditWalletByOperator(sql, { workspaceId, cents: 2000, at: clock.now() });
  const keywords: KeywordRow[] = [];
  for (const term of terms) keywords.push(...(await addKeywords(sql, workspaceId, 1, { term, cap })));
  await chargeDailyKeywordFees(sql, '2028-03-08');
  return { workspaceId, keywords };
}

function post(externalId: string, text: string, author = 'someone', followers: number | null = null): NormalizedPost {
  return {
    platform: 'hackernews',
    externalId,
    url: `https://news.ycombinator.com/item?id=${externalId}`,
    text,
    publishedAt: new Date('2028-03-08T09:00:00.000Z'),
    replyTo: null,
    links: [`https://example.com/${externalId}`],
    author: { platformId: author, name: author, handle: author, url: `https://news.ycombinator.com/user?id=${author}`, avatarUrl: null, followers },
  };
}

/** The mentions a batch stored, read back whole, in the order ingestPosts told them. */
const rowsOf = (outcome: IngestOutcome) => readStoredMentions(sql, outcome.stored);

/** Scored under the relevance line: an exact match is charged all the same (spec 1.7, "relevant or not"). */
const filtered = { relevance: 10, sentiment: 'neutral' as const, intents: [], automated: false, language: 'en', note: '' };

/** What the scoring job records once the classifier has answered, in one transaction on `pool`: the mentions' scores and charges. */
async function score(pool: Sql, stored: readonly StoredMention[]): Promise<void> {
  const rows = await readStoredMentions(pool, stored);
  await pool.begin((tx) => recordScores(tx, rows.map((mention) => ({ mention, classification: filtered, commentsEnabled: false })), [], clock.now()));
}

const externalIdsOf = async (keywords: KeywordRow[]) =>
  (await sql<{ externalId: string }[]>`
    select p.external_id from mentions m join posts p on p.id = m.post_id
    where m.keyword_id = any(${keywords.map((keyword) => keyword.id)}) order by p.external_id`).map((row) => row.externalId);

/** Every keyword whose term the post's text holds. */
const matcherOf = (keywords: KeywordRow[]) => (candidate: MatchablePost) =>
  keywords.filter((keyword) => candidate.text.includes(keyword.term)).map((keyword) => ({ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }));

describe('ingesting a batch of posts', () => {
  it('stores a post named twice once, with its last text, its author last known reach and a mention per keyword', async () => {
    const { keywords } = await workspaceWith(['Quokka', 'Wombat']);
    const outcome = await ingestPosts(worker(), [
      post('twice', 'Quokka first', 'marsupial', 120),
      post('twice', 'Quokka and Wombat, edited', 'marsupial', null),
    ], matcherOf(keywords));

    const rows = await rowsOf(outcome);
    expect(rows.map((mention) => [mention.keywordId, mention.text, mention.authorFollowers, mention.links])).toEqual([
      [keywords[0].id, 'Quokka and Wombat, edited', 120, ['https://example.com/twice']],
      [keywords[1].id, 'Quokka and Wombat, edited', 120, ['https://example.com/twice']],
    ]);
    // What storing tells of each mention, without reading it back, is what the stored rows say.
    expect(outcome.stored).toEqual(rows.map(({ id, workspaceId, keywordId, postId, authorId, fuzzy }) => ({ id, workspaceId, keywordId, postId, authorId, fuzzy })));
    expect((await sql`select count(*)::int as posts from posts where external_id = 'twice'`)[0].posts).toBe(1);
  });

  it('stores every match and charges and announces none; scoring keeps the first up to the cap, announces them and discards the rest', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Capybara'], { mentions: 3, per: 'day' });
    const before = (await wallet(sql, workspaceId)).balanceFifteenths;
    const announced: string[] = [];
    const updated: string[] = [];
    const listening = await sql.listen(mentionCreatedChannel, (payload) => announced.push(JSON.parse(payload).id));
    const listeningToUpdates = await sql.listen(mentionUpdatedChannel, (payload) => updated.push(JSON.parse(payload).id));
    const posts = Array.from({ length: 5 }, (_, i) => post(`capybara-${i}`, `Capybara sighting ${i}`));

    const outcome = await ingestPosts(worker(), posts, matcherOf(keywords));

    // Stored, not charged: the cap and the wallet are the scoring's to apply (spec 2.5: an unscored match is never billed).
    expect((await rowsOf(outcome)).map((mention) => mention.externalId)).toEqual(['capybara-0', 'capybara-1', 'capybara-2', 'capybara-3', 'capybara-4']);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before);
    expect(await keywordRow(sql, keywords[0].id)).toMatchObject({ pausedForCap: false, muted: false });
    expect(await eventsOf(sql, workspaceId)).toEqual([]);

    await score(await scorer(), outcome.stored);

    const kept = outcome.stored.slice(0, 3).map((mention) => mention.id);
    expect(await eventually(async () => [...announced].sort(), (ids) => ids.length >= 3)).toEqual([...kept].sort());
    await listening.unlisten();
    await listeningToUpdates.unlisten();
    // The score came with the announcement: nothing was announced before it to update.
    expect(updated).toEqual([]);
    expect(await externalIdsOf(keywords)).toEqual(['capybara-0', 'capybara-1', 'capybara-2']);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before - 3 * 12);
    expect(await keywordRow(sql, keywords[0].id)).toMatchObject({ pausedForCap: true, muted: false });
    expect((await eventsOf(sql, workspaceId)).map((event) => event.name)).toEqual(['keyword.capped']);
  });

  it('crosses one keyword\'s cap mid-batch at scoring and keeps charging the other keywords of the same wallet, in order', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Ibex', 'Lynx'], { mentions: 2, per: 'day' });
    const before = (await wallet(sql, workspaceId)).balanceFifteenths;
    // Ibex 0, Lynx 1, Ibex 2, Lynx 3, …: the third Ibex is over its cap, the Lynx posts are not (two of six posts each reach it).
    const posts = Array.from({ length: 6 }, (_, i) => post(`cap-cross-${i}`, `${i % 2 ? 'Lynx' : 'Ibex'} seen ${i}`));

    const outcome = await ingestPosts(worker(), posts, matcherOf(keywords));
    expect(outcome.stored).toHaveLength(6);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before);
    await score(await scorer(), outcome.stored);

    expect(await externalIdsOf(keywords)).toEqual(['cap-cross-0', 'cap-cross-1', 'cap-cross-2', 'cap-cross-3']);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before - 4 * 12);
    expect((await eventsOf(sql, workspaceId)).map((event) => event.name)).toEqual(['keyword.capped', 'keyword.capped']);
  });

  it('pauses the wallet where a match scored leaves it short of a day of its keywords mid-batch: the matches before are kept, the rest discarded uncharged', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Okapi', 'Serval']);
    // A day of both keywords and three mentions' worth less a fifteenth: the third match leaves the wallet unable to pay the next day.
    await leaveInWallet(sql, workspaceId, 2 * keywordDayFifteenths + 3 * 12 - 1);
    const posts = Array.from({ length: 6 }, (_, i) => post(`wallet-end-${i}`, `${i % 2 ? 'Serval' : 'Okapi'} seen ${i}`));

    const outcome = await ingestPosts(worker(), posts, matcherOf(keywords));
    expect(outcome.stored).toHaveLength(6);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(2 * keywordDayFifteenths + 3 * 12 - 1);
    await score(await scorer(), outcome.stored);

    expect(await externalIdsOf(keywords)).toEqual(['wallet-end-0', 'wallet-end-1', 'wallet-end-2']);
    const [counts] = await sql`
      select (select count(*)::int from mentions where keyword_id = any(${keywords.map((keyword) => keyword.id)})) as mentions,
             (select count(*)::int from ledger_entries where kind = 'mention' and workspace_id = ${workspaceId}) as charges`;
    expect(counts).toEqual({ mentions: 3, charges: 3 });
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(2 * keywordDayFifteenths - 1);
    for (const keyword of keywords) expect(await keywordRow(sql, keyword.id)).toMatchObject({ muted: true, pausedForBalance: true });
    const events = await eventsOf(sql, workspaceId);
    expect(events.map((event) => event.name)).toEqual(['wallet.low', 'keyword.paused_for_balance', 'keyword.paused_for_balance', 'wallet.paused']);
    expect(events[3].data).toMatchObject({ keywordsPaused: 2, wallet: { balanceCents: 33, effectiveCents: 33, nextDayCents: 0, resumeCostCents: 1, activeKeywords: 0, pausedKeywords: 2 } });
  });

  it('charges nothing at storage, nothing when scoring dies, and each mention once when it scores, however often storing and scoring run again', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Dugong']);
    const before = (await wallet(sql, workspaceId)).balanceFifteenths;
    const posts = Array.from({ length: 30 }, (_, i) => post(`rerun-${i}`, `Dugong seen ${i}`, `diver${i % 4}`));
    const countsNow = async () =>
      (await sql`
        select (select count(*)::int from mentions where keyword_id = ${keywords[0].id}) as mentions,
               (select count(*)::int from mentions where keyword_id = ${keywords[0].id} and relevance is not null) as scored,
               (select count(*)::int from ledger_entries where kind = 'mention' and keyword_id = ${keywords[0].id}) as charges`)[0];

    // The process dies while queueing scoring, inside the storing transaction: nothing of the batch stays.
    const dying = { ...worker(), send: async () => Promise.reject(new Error('killed')) };
    await expect(ingestPosts(dying, posts, matcherOf(keywords))).rejects.toThrow('killed');
    expect(await countsNow()).toEqual({ mentions: 0, scored: 0, charges: 0 });
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before);

    const first = await ingestPosts(worker(), posts, matcherOf(keywords));
    // The job is run again after its commit (the worker died before marking it done): the same posts store nothing.
    const again = await ingestPosts(worker(), posts, matcherOf(keywords));
    expect(first.stored).toHaveLength(30);
    expect(again.stored).toEqual([]);
    // A crash between storing and scoring: the mentions wait, stored and unbilled.
    expect(await countsNow()).toEqual({ mentions: 30, scored: 0, charges: 0 });
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before);

    // The process dies inside the scoring transaction, after its charges: they go with it.
    const rows = await readStoredMentions(sql, first.stored);
    await expect(
      (await scorer()).begin(async (tx) => {
        await recordScores(tx, rows.map((mention) => ({ mention, classification: filtered, commentsEnabled: false })), [], clock.now());
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await countsNow()).toEqual({ mentions: 30, scored: 0, charges: 0 });

    // Scored after the restart by the job and the sweep at once, then once more: each mention is charged once.
    await Promise.all([score(await scorer(), first.stored), score(await scorer(), [...first.stored].reverse())]);
    await score(await scorer(), first.stored);

    expect(await countsNow()).toEqual({ mentions: 30, scored: 30, charges: 30 });
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before - 30 * 12);
    expect(await ledgerBalanceMismatches(sql)).toEqual([]);
  });

  it('keeps a mention an older version charged at storage when it scores, charges it no more, and tells its score on mentionUpdated', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Quetzal']);
    const outcome = await ingestPosts(worker(), [post('legacy-0', 'Quetzal seen')], matcherOf(keywords));
    const [mention] = outcome.stored;
    // Charged (and announced) as it was stored, before charging moved to scoring.
    await sql.begin((tx) => chargeMatchedItems(tx, [{ workspaceId, keywordId: mention.keywordId, kind: 'mention', itemId: mention.id, at: clock.now() }]));
    const before = (await wallet(sql, workspaceId)).balanceFifteenths;
    const events: string[] = [];
    const created = await sql.listen(mentionCreatedChannel, (payload) => events.push(`created ${JSON.parse(payload).id}`));
    const updated = await sql.listen(mentionUpdatedChannel, (payload) => events.push(`updated ${JSON.parse(payload).id}`));

    await score(await scorer(), outcome.stored);

    expect(await eventually(async () => [...events], (heard) => heard.length > 0)).toEqual([`updated ${mention.id}`]);
    await created.unlisten();
    await updated.unlisten();
    expect((await readStoredMentions(sql, outcome.stored)).map((row) => row.relevance)).toEqual([10]);
    expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(before);
    expect((await sql`select count(*)::int as n from ledger_entries where idempotency_key = ${`mention:${mention.id}`}`)[0].n).toBe(1);
  });

  it('lets two workers that both stored mentions of a keyword charge them one after the other', async () => {
    const { workspaceId, keywords } = await workspaceWith(['Tapir']);
    const match = matcherOf(keywords);
    let storing = 2;
    let markBothStored!: () => void;
    const bothStored = new Promise<void>((resolve) => (markBothStored = resolve));
    // Each stores its own post by its own author (share-locking the keyword through the mention's foreign key), waits for the other's, then charges.
    const ingest = (pool: Sql, externalId: string) =>
      pool.begin(async (tx) => {
        const candidate = post(externalId, 'Tapir spotted', externalId);
        const [mention] = await storeMatchedPosts(tx, [{ post: candidate, matches: match(candidate) }]);
        if (--storing === 0) markBothStored();
        await bothStored;
        return chargeMatchedItems(tx, [{ workspaceId, keywordId: mention.keywordId, kind: 'mention', itemId: mention.id, at: clock.now() }]);
      });

    const outcomes = await Promise.all([ingest(worker().sql, 'tapir-left'), ingest(worker().sql, 'tapir-right')]);

    expect(outcomes.flat()).toEqual([{ charged: true }, { charged: true }]);
  });

  it('from two workers at once, in opposite orders and across workspaces, stores and then scores and charges each match once without deadlock', async () => {
    const first = await workspaceWith(['Axolotl', 'Pangolin']);
    const second = await workspaceWith(['Narwhal', 'Okapi']);
    const keywords = [...first.keywords, ...second.keywords];
    const terms = keywords.map((keyword) => keyword.term);
    const balances = await Promise.all([first, second].map(async ({ workspaceId }) => (await wallet(sql, workspaceId)).balanceFifteenths));
    const rounds = Array.from({ length: 4 }, (_, round) =>
      Array.from({ length: 40 }, (_, i) => post(`zoo-${round}-${i}`, `${terms[i % 4]} meets ${terms[(i * 3 + round) % 4]}`, `keeper${i % 6}`)),
    );
    const workers = [worker(), worker()];

    // The same posts in opposite orders meet on authors and posts; different posts of the same keywords meet on keywords and wallets.
    const outcomes = await Promise.all(
      rounds.flatMap((posts) => [
        ingestPosts(workers[0], posts, matcherOf(keywords)),
        ingestPosts(workers[1], [...posts].reverse(), matcherOf(keywords)),
        ingestPosts(workers[0], posts.map((item) => ({ ...item, externalId: `${item.externalId}-left` })), matcherOf(keywords)),
        ingestPosts(workers[1], posts.map((item) => ({ ...item, externalId: `${item.externalId}-right` })), matcherOf(keywords)),
      ]),
    );

    const matches = 3 * rounds.flat().reduce((count, candidate) => count + matcherOf(keywords)(candidate).length, 0);
    const stored = outcomes.flatMap((outcome) => outcome.stored);
    const keywordIds = keywords.map((keyword) => keyword.id);
    expect((await sql`select count(*)::int as n from ledger_entries where kind = 'mention' and keyword_id = any(${keywordIds})`)[0].n).toBe(0);
    // Scoring jobs of both workers at once, each batch scored twice in opposite orders: they meet on mentions, wallets and keywords.
    await Promise.all(outcomes.flatMap((outcome) => [score(workers[0].sql, outcome.stored), score(workers[1].sql, [...outcome.stored].reverse())]));
    expect(new Set(stored.map((mention) => mention.id)).size).toBe(matches);
    expect(stored).toHaveLength(matches);
    const [counts] = await sql`
      select (select count(*)::int from mentions where keyword_id = any(${keywordIds})) as mentions,
             (select count(*)::int from ledger_entries where kind = 'mention' and keyword_id = any(${keywordIds})) as charges`;
    expect(counts).toEqual({ mentions: matches, charges: matches });
    for (const [i, { workspaceId }] of [first, second].entries()) {
      const charged = stored.filter((mention) => mention.workspaceId === workspaceId).length;
      expect((await wallet(sql, workspaceId)).balanceFifteenths).toBe(balances[i] - charged * 12);
    }
  });
});
