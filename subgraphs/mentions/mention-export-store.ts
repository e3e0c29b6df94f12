import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { mentionFilterSql, type MentionFilter, type ResolvedMentionFilter } from './mention-filter.ts';
import { relevantSql, shownRelevanceSql } from './relevance.ts';

/**
 * Grants an export of the workspace's mentions unless it had `perMinute`
 * already in the last minute, then it answers how many seconds until the
 * oldest of them leaves the minute. The workspace's grants are counted
 * under a lock held to the commit, so processes granting at once count one
 * after another. Grants older than an hour are dropped on the way.
 */
export async function grantMentionExport(sql: Sql, workspaceId: string, filter: MentionFilter, perMinute: number): Promise<{ id: string } | { retryAfterSeconds: number }> {
  return sql.begin(async (tx) => {
    await tx`/* lockWorkspaceExports */ select pg_advisory_xact_lock(hashtextextended('mention_exports:' || ${workspaceId}, 0))`;
    const [recent] = await tx<{ count: number; retryAfterSeconds: number | null }[]>`
      /* countRecentMentionExports */
      select count(*)::int as count, ceil(extract(epoch from min(created_at) + interval '1 minute' - clock_timestamp()))::int as retry_after_seconds
      from mention_exports
      where workspace_id = ${workspaceId} and created_at > clock_timestamp() - interval '1 minute'`;
    if (recent.count >= perMinute) return { retryAfterSeconds: Math.max(1, recent.retryAfterSeconds ?? 1) };
    const id = newId('exp');
    await tx`
      /* insertMentionExport */
      insert into mention_exports (id, workspace_id, filter, created_at) values (${id}, ${workspaceId}, ${tx.json(filter as never)}, clock_timestamp())`;
    await tx`
      /* dropOldMentionExports */
      delete from mention_exports where workspace_id = ${workspaceId} and created_at < clock_timestamp() - interval '1 hour'`;
    return { id };
  });
}

/** Takes a grant made in the last minute and never streamed: its workspace and filter; undefined for any other id. */
export async function claimMentionExport(sql: Queryable, id: string): Promise<{ workspaceId: string; filter: unknown } | undefined> {
  const [grant] = await sql<{ workspaceId: string; filter: unknown }[]>`
    /* claimMentionExport */
    update mention_exports set streamed_at = clock_timestamp()
    where id = ${id} and streamed_at is null and created_at > clock_timestamp() - interval '1 minute'
    returning workspace_id, filter`;
  return grant;
}

/** One row of the CSV export, in the columns' order (spec 4.3), the keyword by its id: its term is the keywords subgraph's to give. */
export interface ExportedMention {
  id: string;
  publishedAt: Date;
  platform: string;
  keywordId: string;
  author: string;
  authorUrl: string;
  authorFollowers: number | null;
  relevance: number | null;
  sentiment: string | null;
  intents: string[] | null;
  status: string;
  relevant: boolean;
  delivered: boolean;
  url: string;
  text: string;
  links: string[];
}

/** How many of the workspace's mentions pass the filter, counting no further than `upTo`. */
export async function countExportedMentions(sql: Queryable, workspaceId: string, filter: ResolvedMentionFilter, upTo: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    /* countExportedMentions */
    select count(*)::int as count from (
      select 1 from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
      where m.workspace_id = ${workspaceId} and ${mentionFilterSql(sql, filter)}
      limit ${upTo}
    ) matched`;
  return row.count;
}

/**
 * The export's rows, newest match first, at most `limit`, text cut to
 * `textLength` characters: a query for a cursor.
 */
export function exportedMentions(sql: Queryable, workspaceId: string, filter: ResolvedMentionFilter, limit: number, textLength: number) {
  return sql<ExportedMention[]>`
    /* exportedMentions */
    select m.id, p.published_at, p.platform, m.keyword_id, a.name as author, a.url as author_url, a.followers as author_followers,
           ${shownRelevanceSql(sql)} as relevance, coalesce(m.verdict_sentiment, m.sentiment) as sentiment, m.intents, m.status, ${relevantSql(sql)} as relevant,
           m.delivered, p.url, left(p.text, ${textLength}) as text, p.links
    from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    where m.workspace_id = ${workspaceId} and ${mentionFilterSql(sql, filter)}
    order by m.created_at desc, m.id desc
    limit ${limit}`;
}
