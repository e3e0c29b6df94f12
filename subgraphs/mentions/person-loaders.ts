import DataLoader from 'dataloader';
import { perRequest } from '../request-loaders.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { findMentionsByIds, type MentionRow } from './mention-store.ts';
import { lastContactTimes } from './person-activity-store.ts';
import {
  findPeopleOfAuthors,
  lastPersonMentionIds,
  listPersonAccounts,
  type PersonAccountRow,
  personMentionStats,
  type PersonMentionStats,
  type PersonRow,
} from './person-store.ts';

function createPersonLoaders(ctx: SubgraphContext) {
  const { sql } = ctx;
  const workspaceId = () => requireAuth(ctx).workspaceId;
  return {
    accounts: new DataLoader<string, PersonAccountRow[]>(async (ids) => {
      const rows = await listPersonAccounts(sql, workspaceId(), ids);
      return ids.map((id) => rows.filter((row) => row.personId === id));
    }),
    stats: new DataLoader<string, PersonMentionStats>(async (ids) => {
      const rows = await personMentionStats(sql, workspaceId(), ids);
      return ids.map((id) => rows.find((row) => row.personId === id) ?? { personId: id, mentions: 0, relevant: 0, automated: false });
    }),
    lastMention: new DataLoader<string, MentionRow | null>(async (ids) => {
      const last = await lastPersonMentionIds(sql, workspaceId(), ids);
      const mentions = new Map((await findMentionsByIds(sql, last.map((row) => row.mentionId))).map((mention) => [mention.id, mention]));
      return ids.map((id) => mentions.get(last.find((row) => row.personId === id)?.mentionId ?? '') ?? null);
    }),
    lastContactAt: new DataLoader<string, Date | null>(async (ids) => {
      const times = await lastContactTimes(sql, workspaceId(), ids);
      return ids.map((id) => times.get(id) ?? null);
    }),
    /** The person of a mention's author, in the caller's workspace (every mention the caller reads is its own). */
    ofAuthor: new DataLoader<string, PersonRow | null>(async (authorIds) => {
      const rows = await findPeopleOfAuthors(sql, workspaceId(), authorIds);
      return authorIds.map((id) => rows.find((row) => row.authorId === id) ?? null);
    }),
  };
}

export type PersonLoaders = ReturnType<typeof createPersonLoaders>;

/** One set of batching loaders per request, so a page of people costs a fixed number of queries. */
export const personLoaders = perRequest(createPersonLoaders);
