import { readFile } from 'node:fs/promises';
import { printSubgraphSchema } from '@apollo/subgraph';
import { Kind, type ObjectTypeDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { subgraphNames } from '../runtime/config.ts';
import { composeSupergraph } from '../schema/supergraph.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';

describe('supergraph', () => {
  it('is committed as a fresh composition would write it (run `npm run compose` when this fails)', async () => {
    const committed = await readFile(new URL('../schema/supergraph.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(await composeSupergraph());
  });

  // A GraphQL client reads the spec's notes from the schema: the keyword and mention fields had none.
  it("describes every field of a keyword, a mention, a key, a channel, an alert rule and whoami whose spec row carries a note (spec 2, 4.1)", async () => {
    const document = parse(await readFile(new URL('../schema/supergraph.graphql', import.meta.url), 'utf8'));
    const types = new Map(
      document.definitions.filter((node): node is ObjectTypeDefinitionNode => node.kind === Kind.OBJECT_TYPE_DEFINITION).map((node) => [node.name.value, node]),
    );
    const noted: Record<string, string[]> = {
      Keyword: ['id', 'term', 'kind', 'muted', 'pausedForBalance', 'pausedForNoise', 'pausedForCap', 'cap', 'platforms', 'context', 'polling'],
      KeywordCap: ['mentions', 'per', 'used', 'welcome', 'own', 'ownPer', 'resumesAt'],
      KeywordComments: ['enabled', 'maxPerPost'],
      KeywordFeed: ['url', 'title', 'connectedAt'],
      KeywordMatching: ['requiredTerms', 'requiredMode', 'excludedTerms', 'excludedAuthors', 'caseSensitive', 'exactPhrase'],
      SubredditRules: ['only', 'excluded'],
      RepositoryRules: ['events', 'minStars', 'minWeeklyStars'],
      KeywordStats: ['mentions', 'relevant', 'last7d', 'thisMonth', 'lastMentionAt', 'health'],
      KeywordNoise: ['noisy'],
      KeywordCost: ['totalCents'],
      GroupRef: ['id', 'externalId', 'isDefault'],
      ReviewSource: ['id', 'url', 'countries', 'language', 'connectedAt'],
      Mention: ['id', 'status', 'priority', 'keyword', 'classification'],
      Post: ['replyTo', 'links'],
      Author: ['id'],
      Classification: ['relevance', 'sentiment', 'intents', 'automated', 'language', 'feedback'],
      Triage: ['assignee', 'snoozedUntil'],
      ApiKey: ['key', 'lastUsedAt', 'expiresAt', 'prefix'],
      Channel: ['id', 'kind'],
      ChannelConfig: ['url', 'headers', 'secret', 'events'],
      ChannelStats: ['lastDeliveryAt'],
      AuthInfo: ['kind', 'scope', 'apiKeyId', 'expiresAt'],
      AlertRule: ['id', 'mode', 'event', 'channelIds', 'schedule'],
      AlertFilter: ['sentiments', 'intents', 'minRelevance', 'mutedAuthors'],
    };
    const undescribed = Object.entries(noted).flatMap(([type, fields]) =>
      fields.filter((field) => !types.get(type)?.fields?.find((each) => each.name.value === field)?.description?.value.trim()).map((field) => `${type}.${field}`),
    );
    expect(undescribed).toEqual([]);
  });

  it.each(subgraphNames)('keeps the %s subgraph SDL as snapshotted', async (name) => {
    expect(printSubgraphSchema(await subgraphSchemas[name]())).toMatchSnapshot();
  });
});
