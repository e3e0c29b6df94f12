import type { Client } from 'graphql-ws';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { announceMentionsCreated, type MentionRow, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { TestEarshot } from './harness.ts';

/** Live mentions for tests of `mentionCreated`: posts stored and announced as the polling jobs do, and what a subscriber received. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; !condition() && waited < ms; waited += 20) await sleep(20);
}

/** Every result a subscription delivers, in order, and how it ended. */
export function collect(client: Client, query: string, operationName?: string) {
  const results: any[] = [];
  const ended = new Promise<{ error?: unknown }>((resolve) => {
    client.subscribe({ query, operationName }, { next: (result) => results.push(result), error: (error) => resolve({ error }), complete: () => resolve({}) });
  });
  return { results, ended };
}

/**
 * graphql-ws gives no signal when the gateway's subscription to the subgraph
 * is live, so this keeps storing mentions until `delivered` says one arrived;
 * the subscription is live from then on. Returns the mentions stored.
 */
export async function storeUntilDelivered(delivered: () => boolean | Promise<boolean>, store: (attempt: number) => Promise<MentionRow>): Promise<MentionRow[]> {
  const stored: MentionRow[] = [];
  for (let attempt = 0; attempt < 50 && !(await delivered()); attempt++) {
    stored.push(await store(attempt));
    for (let waited = 0; waited < 200 && !(await delivered()); waited += 20) await sleep(20);
  }
  expect(await delivered()).toBe(true);
  return stored;
}

export interface SeededKeyword {
  id: string;
  term: string;
}

export async function seedKeyword(earshot: TestEarshot, apiKey: string, term: string): Promise<SeededKeyword> {
  const created = await earshot.rest('POST', '/v1/keywords', { key: apiKey, body: { term } });
  expect(created.status).toBe(201);
  return { id: created.body.id, term: created.body.term };
}

/** A post matched by the keyword, stored and announced the way the polling jobs do (charging aside). */
export async function newMention(earshot: TestEarshot, workspaceId: string, keyword: SeededKeyword, text: string): Promise<MentionRow> {
  const externalId = String(Math.floor(Math.random() * 1e12));
  const [mention] = await storeMatchedPost(
    earshot.sql,
    {
      platform: 'hackernews',
      externalId,
      url: `https://news.ycombinator.com/item?id=${externalId}`,
      text,
      publishedAt: new Date('2026-01-02T03:04:05.000Z'),
      replyTo: null,
      links: [],
      author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
    },
    [{ keywordId: keyword.id, workspaceId, fuzzy: false }],
  );
  await announceMentionsCreated(earshot.sql, [mention]);
  return mention;
}

/**
 * A raw graphql-ws connection subscribed to `mentionCreated`: every message
 * it received and how it closed. `bearer` goes in the connection parameters;
 * `headers` on the upgrade request (a browser's cookie and Origin).
 */
export async function rawSubscription(earshot: TestEarshot, credential: { bearer?: string; headers?: Record<string, string> }) {
  const socket = new WebSocket(`${earshot.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: credential.headers });
  const messages: any[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const payload = credential.bearer ? { authorization: `Bearer ${credential.bearer}` } : {};
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    messages.push(message);
    if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: 'live', type: 'subscribe', payload: { query: 'subscription { mentionCreated { id } }' } }));
  });
  await waitFor(() => messages.length > 0);
  // The subscription reaches the subgraph a moment after the acknowledgement.
  await sleep(500);
  return { socket, messages, closed };
}

/** What a subscription's connection receives when its credential stops working: the ending error, the complete, then close 4403. */
export const endedByCredential = {
  messages: [
    { type: 'connection_ack' },
    { id: 'live', type: 'next', payload: { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'unauthorized' }) })] } },
    { id: 'live', type: 'complete' },
  ],
  closed: { code: 4403, reason: 'Forbidden: the credential stopped working' },
};
