import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface MentionRow {
  id: string;
  workspaceId: string;
  keywordId: string;
  platform: string;
  url: string;
  text: string;
  publishedAt: Date;
  status: 'open' | 'done' | 'ignored';
  createdAt: Date;
}

export interface NewMention {
  workspaceId: string;
  keywordId: string;
  platform: string;
  url: string;
  text: string;
  publishedAt: Date;
}

/** The channel `mentionCreated` listens on; its payload is `{ id, workspaceId }`. */
export const mentionCreatedChannel = 'earshot_mention_created';

export async function insertMention(sql: Queryable, mention: NewMention): Promise<MentionRow> {
  const id = newId('mm');
  const [row] = await sql<MentionRow[]>`
    /* insertMention */
    with inserted as (
      insert into mentions (id, workspace_id, keyword_id, platform, url, text, published_at)
      values (${id}, ${mention.workspaceId}, ${mention.keywordId}, ${mention.platform}, ${mention.url},
              ${mention.text}, ${mention.publishedAt})
      returning *
    ), notified as (
      select pg_notify(${mentionCreatedChannel}, json_build_object('id', id, 'workspaceId', workspace_id)::text)
      from inserted
    )
    select inserted.id, workspace_id, keyword_id, platform, url, text, published_at, status, created_at
    from inserted, notified`;
  return row;
}

export async function findMention(sql: Queryable, workspaceId: string, id: string): Promise<MentionRow | undefined> {
  const [row] = await sql<MentionRow[]>`
    /* findMention */
    select id, workspace_id, keyword_id, platform, url, text, published_at, status, created_at
    from mentions where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}
