import type { NormalizedPost, Platform } from '../../vocabulary/normalized-post.ts';
import type { Queryable } from '../../runtime/database.ts';
import { relevantSql } from './relevance.ts';

/** A keyword's match that the classifier scored or a user judged, with the post as the matcher reads it. */
export interface ScoredKeywordMatch {
  mentionId: string;
  /** Relevant by verdict, else scored at or above 40; otherwise noise (spec 2.4, part 8). */
  relevant: boolean;
  post: NormalizedPost;
}

export interface ScoredMatchCounts {
  relevant: number;
  noise: number;
}

interface ScoredMatchRow {
  mentionId: string;
  relevant: boolean;
  platform: Platform;
  externalId: string;
  url: string;
  text: string;
  publishedAt: Date;
  replyTo: string | null;
  links: string[];
  subreddit: string | null;
  rating: number | null;
  authorPlatformId: string;
  authorName: string;
  authorHandle: string;
  authorUrl: string;
  authorAvatarUrl: string | null;
  authorFollowers: number | null;
}

const scoredSql = `(m.relevance is not null or m.verdict_relevant is not null)`;

const toScoredMatch = (row: ScoredMatchRow): ScoredKeywordMatch => ({
  mentionId: row.mentionId,
  relevant: row.relevant,
  post: {
    platform: row.platform,
    externalId: row.externalId,
    url: row.url,
    text: row.text,
    publishedAt: row.publishedAt,
    replyTo: row.replyTo,
    links: row.links,
    subreddit: row.subreddit,
    rating: row.rating,
    author: {
      platformId: row.authorPlatformId,
      name: row.authorName,
      handle: row.authorHandle,
      url: row.authorUrl,
      avatarUrl: row.authorAvatarUrl,
      followers: row.authorFollowers,
    },
  },
});

/** The newest `limit` scored matches of a keyword made at or after `since`, with their posts and authors. */
export async function listScoredKeywordMatches(sql: Queryable, keywordId: string, since: Date, limit: number): Promise<ScoredKeywordMatch[]> {
  const rows = await sql<ScoredMatchRow[]>`
    /* listScoredKeywordMatches */
    select m.id as mention_id, ${relevantSql(sql)} as relevant,
           p.platform, p.external_id, p.url, p.text, p.published_at, p.reply_to, p.links, p.subreddit, p.rating,
           a.platform_id as author_platform_id, a.name as author_name, a.handle as author_handle, a.url as author_url,
           a.avatar_url as author_avatar_url, a.followers as author_followers
    from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    where m.keyword_id = ${keywordId} and m.created_at >= ${since} and ${sql.unsafe(scoredSql)}
    order by m.created_at desc, m.id desc
    limit ${limit}`;
  return rows.map(toScoredMatch);
}

/** How many scored matches of a keyword made at or after `since` were relevant and how many noise. */
export async function countScoredKeywordMatches(sql: Queryable, keywordId: string, since: Date): Promise<ScoredMatchCounts> {
  const [row] = await sql<ScoredMatchCounts[]>`
    /* countScoredKeywordMatches */
    select count(*) filter (where ${relevantSql(sql)})::int as relevant,
           count(*) filter (where not ${relevantSql(sql)})::int as noise
    from mentions m
    where m.keyword_id = ${keywordId} and m.created_at >= ${since} and ${sql.unsafe(scoredSql)}`;
  return row;
}
