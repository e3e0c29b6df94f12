import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeywordTermCache } from '../subgraphs/keywords/index.ts';
import { forgetKeywordTermInProcess } from '../subgraphs/keywords/keyword-term-cache.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { seedMentions } from './mention-seeds.ts';

// Two processes on one database: `first` runs everything, `second` is a
// gateway of its own over the first's subgraphs. Each keeps the keyword
// terms it read in memory to name the keywords of a page of mentions; a
// rename made anywhere must reach both.
let first: TestEarshot;
let second: TestEarshot;
let key: string;
let workspaceId: string;
let keywordId: string;
let otherKeywordId: string;

/** How soon the other process must name a renamed keyword by its new term. */
const propagationMs = 1000;
const page = '{ mentions { nodes { keyword { id term } } } }';
const termsIn = (body: any): string[] => body.data.mentions.nodes.map((node: any) => node.keyword.term);

beforeAll(async () => {
  first = await startTestEarshot();
  second = await startTestEarshot({ subgraphUrls: first.subgraphUrls }, { role: 'gateway', databaseUrl: first.databaseUrl });
  const created = await first.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
  keywordId = (await first.rest('POST', '/v1/keywords', { key, body: { term: 'Acme' } })).body.id;
  otherKeywordId = (await first.rest('POST', '/v1/keywords', { key, body: { term: 'Widget' } })).body.id;
  const score = { relevance: 90, sentiment: 'positive' as const };
  // One at a time, so each has its own match time and the list's order (newest first) is known.
  for (const id of [otherKeywordId, keywordId, keywordId]) await seedMentions(first.sql, workspaceId, [{ keywordId: id, score }]);
});
afterAll(async () => {
  await second?.stop();
  await first?.stop();
});

const rename = async (id: string, term: string) => {
  const renamed = await first.rest('PATCH', `/v1/keywords/${id}`, { key, body: { term } });
  expect(renamed.status).toBe(200);
};

describe('keyword terms kept in memory for pages of mentions', () => {
  it('names a renamed keyword by its new term at once in the process that renamed it', async () => {
    // Twice: the second page is named from memory.
    for (let i = 0; i < 2; i++) {
      expect((await first.rest('GET', '/v1/mentions', { key })).body.data.map((mention: any) => mention.keyword)).toEqual([
        { id: keywordId, term: 'Acme' },
        { id: keywordId, term: 'Acme' },
        { id: otherKeywordId, term: 'Widget' },
      ]);
    }
    await rename(keywordId, 'Acme Cloud');
    expect((await first.rest('GET', '/v1/mentions', { key })).body.data.map((mention: any) => mention.keyword)).toEqual([
      { id: keywordId, term: 'Acme Cloud' },
      { id: keywordId, term: 'Acme Cloud' },
      { id: otherKeywordId, term: 'Widget' },
    ]);
  });

  it('names it by its new term in the other process within a second', async () => {
    expect(termsIn((await second.graphql(page, {}, key)).body)).toEqual(['Acme Cloud', 'Acme Cloud', 'Widget']);
    await rename(otherKeywordId, 'Widget Pro');
    const answer = await eventually(() => second.graphql(page, {}, key), (reply) => termsIn(reply.body).includes('Widget Pro'), propagationMs);
    expect(termsIn(answer.body)).toEqual(['Acme Cloud', 'Acme Cloud', 'Widget Pro']);
  });

  it('hears of a rename made in SQL, outside any process', async () => {
    expect(termsIn((await first.graphql(page, {}, key)).body)).toEqual(['Acme Cloud', 'Acme Cloud', 'Widget Pro']);
    await first.sql`update keywords set term = 'Acme Labs' where id = ${keywordId}`;
    for (const process of [first, second]) {
      const answer = await eventually(() => process.graphql(page, {}, key), (reply) => termsIn(reply.body).includes('Acme Labs'), propagationMs);
      expect(termsIn(answer.body)).toEqual(['Acme Labs', 'Acme Labs', 'Widget Pro']);
    }
  });
});

describe('the keyword term cache', () => {
  it('answers a term only to the workspace it was read for', async () => {
    const cache = await startKeywordTermCache(first.sql);
    try {
      cache.beginRead()(workspaceId, [{ id: keywordId, term: 'Acme Labs' }]);
      expect(cache.termsOf(workspaceId, [keywordId, otherKeywordId])).toEqual(['Acme Labs', undefined]);
      expect(cache.termsOf('org_another', [keywordId])).toEqual([undefined]);
    } finally {
      await cache.stop();
    }
  });

  it('forgets a term at once when this process renamed the keyword, before any notification', async () => {
    const cache = await startKeywordTermCache(first.sql);
    try {
      cache.beginRead()(workspaceId, [{ id: keywordId, term: 'Acme Labs' }, { id: otherKeywordId, term: 'Widget Pro' }]);
      const overlapped = cache.beginRead();
      forgetKeywordTermInProcess(keywordId);
      expect(cache.termsOf(workspaceId, [keywordId, otherKeywordId])).toEqual([undefined, 'Widget Pro']);
      overlapped(workspaceId, [{ id: keywordId, term: 'Acme Labs' }]);
      expect(cache.termsOf(workspaceId, [keywordId])).toEqual([undefined]);
    } finally {
      await cache.stop();
    }
  });

  it('forgets a renamed term, and keeps no read that the rename overlapped', async () => {
    const cache = await startKeywordTermCache(first.sql);
    try {
      cache.beginRead()(workspaceId, [{ id: keywordId, term: 'Acme Labs' }, { id: otherKeywordId, term: 'Widget Pro' }]);
      const overlapped = cache.beginRead();
      await first.sql`update keywords set term = 'Acme Max' where id = ${keywordId}`;
      const forgotten = await eventually(async () => cache.termsOf(workspaceId, [keywordId, otherKeywordId]), ([term]) => term === undefined, propagationMs);
      expect(forgotten).toEqual([undefined, 'Widget Pro']);
      // A read begun before the notification may hold the old term: it is not kept.
      overlapped(workspaceId, [{ id: keywordId, term: 'Acme Labs' }]);
      expect(cache.termsOf(workspaceId, [keywordId])).toEqual([undefined]);
      cache.beginRead()(workspaceId, [{ id: keywordId, term: 'Acme Max' }]);
      expect(cache.termsOf(workspaceId, [keywordId])).toEqual(['Acme Max']);
    } finally {
      await cache.stop();
    }
  });
});
