import type { Queryable } from '../../runtime/database.ts';
import { mentionFilterSql, type ResolvedMentionFilter } from './mention-filter.ts';
import { mentionColumns, type MentionRow } from './mention-store.ts';

/** Who waits for announced mentions: a workspace and the filter its subscribers gave. */
export interface MentionAudience {
  workspaceId: string;
  filter: ResolvedMentionFilter;
}

/** An announced mention as it is now, and the audiences (by their position in the list given) it is shown to. */
export type AnnouncedMention = MentionRow & { audiences: number[] };

/**
 * The announced mentions `ids` still there, in their order, each with the
 * audiences whose filter it passes: one statement decides a batch of
 * announcements for every subscriber of the process, with the list's own
 * condition (so a live event is what the list would show at that moment).
 */
export async function loadAnnouncedMentions(sql: Queryable, ids: readonly string[], audiences: readonly MentionAudience[]): Promise<AnnouncedMention[]> {
  if (ids.length === 0 || audiences.length === 0) return [];
  const [first, ...rest] = audiences.map(
    ({ workspaceId, filter }, index) => sql`case when m.workspace_id = ${workspaceId} and ${mentionFilterSql(sql, filter)} then ${index}::int end`,
  );
  const passing = rest.reduce((all, audience) => sql`${all}, ${audience}`, first);
  return sql<AnnouncedMention[]>`
    /* loadAnnouncedMentions */
    select ${mentionColumns(sql)}, array_remove(array[${passing}], null) as audiences
    from unnest(${sql.array(ids as string[])}::text[]) with ordinality as wanted(id, position)
    join mentions m on m.id = wanted.id join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    order by wanted.position`;
}
