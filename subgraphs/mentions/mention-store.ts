import type { NormalizedPost } from '../../jobs/connectors/normalized-post.ts';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface MentionRow {
  id: string;
  workspaceId: string;
  keywordId: string;
  status: 'open' | 'done' | 'ignored';
  fuzzy: boolean;
  delivered: boolean;
  priority: number;
  createdAt: Date;
  platform: string;
  url: string;
  text: string;
  publishedAt: Date;
  replyTo: string | null;
  links: string[];
}

/** One keyword's match of a post, as the matcher reports it. */
export interface PostMatch {
  keywordId: string;
  workspaceId: string;
  fuzzy: boolean;
}

/** The channel `mentionCreated` listens on; its payload is `{ id, workspaceId }`. */
export const mentionCreatedChannel = 'earshot_mention_created';

const mentionColumns = (sql: Queryable) => sql`
  m.id, m.workspace_id, m.keyword_id, m.status, m.fuzzy, m.delivered, m.priority, m.created_at,
  p.platform, p.url, p.text, p.published_at, p.reply_to, p.links`;

/**
 * Stores a post once (author once per platform account) and one mention per
 * matching keyword, skipping keywords that already hold this post, and
 * announces each new mention. Returns only the mentions created now.
 */
export async function storeMatchedPost(sql: Queryable, post: NormalizedPost, matches: PostMatch[]): Promise<MentionRow[]> {
  if (matches.length === 0) return [];
  const { author } = post;
  const rows = await sql<MentionRow[]>`
    /* storeMatchedPost */
    with author as (
      insert into authors (id, platform, platform_id, name, handle, url, avatar_url, followers)
      values (${newId('aut')}, ${post.platform}, ${author.platformId}, ${author.name}, ${author.handle}, ${author.url},
              ${author.avatarUrl}, ${author.followers})
      on conflict (platform, platform_id) do update set
        name = excluded.name, handle = excluded.handle, url = excluded.url,
        avatar_url = excluded.avatar_url, followers = coalesce(excluded.followers, authors.followers), updated_at = now()
      returning id
    ), post as (
      insert into posts (id, platform, external_id, url, text, published_at, reply_to, links, author_id, subreddit, rating)
      select ${newId('pst')}, ${post.platform}, ${post.externalId}, ${post.url}, ${post.text}, ${post.publishedAt},
             ${post.replyTo}, ${post.links}, author.id, ${post.subreddit ?? null}, ${post.rating ?? null}
      from author
      on conflict (platform, external_id) do update set text = excluded.text
      returning id, platform, url, text, published_at, reply_to, links
    ), matched as (
      select * from unnest(${sql.array(matches.map(() => newId('mm')))}::text[],
                           ${sql.array(matches.map((m) => m.keywordId))}::text[],
                           ${sql.array(matches.map((m) => m.workspaceId))}::text[],
                           ${sql.array(matches.map((m) => m.fuzzy))}::boolean[]) as t(id, keyword_id, workspace_id, fuzzy)
    ), inserted as (
      insert into mentions (id, workspace_id, keyword_id, post_id, fuzzy)
      select matched.id, matched.workspace_id, matched.keyword_id, post.id, matched.fuzzy
      from matched, post
      on conflict (keyword_id, post_id) do nothing
      returning *
    ), notified as (
      select pg_notify(${mentionCreatedChannel}, json_build_object('id', id, 'workspaceId', workspace_id)::text) from inserted
    )
    select inserted.id, inserted.workspace_id, inserted.keyword_id, inserted.status, inserted.fuzzy, inserted.delivered,
           inserted.priority, inserted.created_at, post.platform, post.url, post.text, post.published_at, post.reply_to, post.links
    from inserted, post, (select count(*) from notified) as announced`;
  return rows;
}

export async function findMention(sql: Queryable, workspaceId: string, id: string): Promise<MentionRow | undefined> {
  const [row] = await sql<MentionRow[]>`
    /* findMention */
    select ${mentionColumns(sql)}
    from mentions m join posts p on p.id = m.post_id
    where m.id = ${id} and m.workspace_id = ${workspaceId}`;
  return row;
}
