import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signSubgraphRequest } from '../runtime/gateway-signature.ts';
import type { MentionRow } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';
import { collect, newMention, type SeededKeyword, seedKeyword, sleep, storeUntilDelivered, waitFor } from './live-mentions.ts';

let earshot: TestEarshot;
const clients: Client[] = [];

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await earshot?.stop();
});

const mentionCreated = 'subscription { mentionCreated { id post { text } keyword { id term } } }';

function subscribe(key: string): Client {
  const client = earshot.subscribe(key);
  clients.push(client);
  return client;
}

const expectedEvent = (mention: MentionRow, keyword: SeededKeyword) => ({
  data: { mentionCreated: { id: mention.id, post: { text: mention.text }, keyword: { id: keyword.id, term: keyword.term } } },
});

describe('gateway over HTTP', () => {
  it('answers a query spanning the team and billing subgraphs', async () => {
    const { workspace, apiKey } = await earshot.createWorkspace('Federated');
    const response = await earshot.graphql('{ whoami { workspace { id name wallet { balanceCents } } } }', {}, apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { whoami: { workspace: { id: workspace.id, name: 'Federated', wallet: { balanceCents: 580 } } } },
    });
  });

  it('refuses a request without a key, and with an unknown one, as unauthorized', async () => {
    for (const key of [undefined, 'mk_live_unknown']) {
      const response = await earshot.graphql('{ whoami { workspace { id } } }', {}, key);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'unauthorized' } }] });
    }
  });
});

// graphql-ws has no status line: the refusal is the subscription's only result, then it completes.
const refusal = (message: string) => ({ errors: [{ message, extensions: { code: 'unauthorized', http: { status: 401 } } }] });

describe('mentionCreated over graphql-ws', () => {
  it("delivers each new mention of the workspace with its keyword's term from the keywords subgraph, and only to that workspace", async () => {
    const mine = await earshot.createWorkspace('Listener');
    const theirs = await earshot.createWorkspace('Neighbour');
    const myKeyword = await seedKeyword(earshot, mine.apiKey, 'earshot');
    const theirKeyword = await seedKeyword(earshot, theirs.apiKey, 'elsewhere');
    const myEvents = collect(subscribe(mine.apiKey), mentionCreated);
    const theirEvents = collect(subscribe(theirs.apiKey), mentionCreated);

    const myWarmUp = await storeUntilDelivered(() => myEvents.results.length > 0, (n) => newMention(earshot, mine.workspace.id, myKeyword, `warm-up ${n}`));
    const theirWarmUp = await storeUntilDelivered(() => theirEvents.results.length > 0, (n) => newMention(earshot, theirs.workspace.id, theirKeyword, `theirs ${n}`));
    const firstOfMine = myWarmUp.find((mention) => mention.id === myEvents.results[0].data?.mentionCreated?.id);
    expect(firstOfMine).toBeDefined();
    expect(myEvents.results[0]).toEqual(expectedEvent(firstOfMine!, myKeyword));

    const delivered = myEvents.results.length;
    const mention = await newMention(earshot, mine.workspace.id, myKeyword, 'Earshot heard this');
    await waitFor(() => myEvents.results.length > delivered);
    expect(myEvents.results.at(-1)).toEqual(expectedEvent(mention, myKeyword));

    // Give a leak the time a delivery takes before asserting there was none.
    await sleep(300);
    const idsOf = (results: any[]) => results.map((result) => result.data.mentionCreated.id);
    expect([...myWarmUp, mention].map((stored) => stored.id)).toEqual(expect.arrayContaining(idsOf(myEvents.results)));
    expect(theirWarmUp.map((stored) => stored.id)).toEqual(expect.arrayContaining(idsOf(theirEvents.results)));
  });

  it('refuses a subscription without credentials', async () => {
    const client = createClient({ url: `${earshot.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    clients.push(client);
    const { results, ended } = collect(client, mentionCreated);
    expect(await ended).toEqual({});
    expect(results).toEqual([refusal('Send an API key as "Authorization: Bearer mk_live_…"')]);
  });

  it('refuses a subscription with an unknown key', async () => {
    const { results, ended } = collect(subscribe('mk_live_notarealkey'), mentionCreated);
    expect(await ended).toEqual({});
    expect(results).toEqual([refusal('The API key or access token is invalid, expired or revoked')]);
  });
});

describe('subgraphs', () => {
  it('refuse requests the gateway did not sign, and execute nothing', async () => {
    const { workspace } = await earshot.createWorkspace('Target');
    const subgraphUrl = earshot.subgraphUrls!.team;
    const query = 'mutation { createApiKey(input: { name: "Smuggled" }) { id key } }';
    const context = {
      requestId: 'forged-request',
      auth: { workspaceId: workspace.id, kind: 'api_key' as const, scope: 'write' as const, apiKeyId: null, expiresAt: null, userId: null },
    };
    const bodies = {
      unsigned: { query, extensions: { earshot: { context } } },
      forged: { query, extensions: { earshot: signSubgraphRequest('not-the-deployment-secret', { query, variables: undefined, context }) } },
      bare: { query },
    };
    for (const body of Object.values(bodies)) {
      const response = await fetch(subgraphUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        errors: [{ message: 'This subgraph only answers requests signed by the Earshot gateway', extensions: { code: 'unauthorized' } }],
      });
    }
    const keys = await earshot.sql`select name from api_keys where workspace_id = ${workspace.id}`;
    expect(keys.map((row) => row.name)).toEqual(['First key']);
  });

  it('refuse an unsigned subscription over graphql-ws', async () => {
    const client = createClient({ url: earshot.subgraphUrls!.mentions.replace('http', 'ws'), webSocketImpl: WebSocket, retryAttempts: 0 });
    clients.push(client);
    const { results, ended } = collect(client, 'subscription { mentionCreated { id } }');
    expect(await ended).toEqual({
      error: [{ message: 'This subgraph only answers requests signed by the Earshot gateway', extensions: { code: 'unauthorized' } }],
    });
    expect(results).toEqual([]);
  });
});
