import type { Queryable } from '../../runtime/database.ts';

/** What the compatibility API's feedback route said beside a verdict. */
export interface CompatFeedbackNote {
  reason: string | null;
  source: 'WEB' | 'EMAIL' | 'API' | 'SLACK';
  createdAt: Date;
}

export async function saveCompatFeedbackNote(sql: Queryable, mentionId: string, note: Pick<CompatFeedbackNote, 'reason' | 'source'>): Promise<void> {
  await sql`
    /* saveCompatFeedbackNote */
    insert into compat_feedback (mention_id, reason, source) values (${mentionId}, ${note.reason}, ${note.source})
    on conflict (mention_id) do update set reason = excluded.reason, source = excluded.source, created_at = now()`;
}

export async function findCompatFeedbackNote(sql: Queryable, mentionId: string): Promise<CompatFeedbackNote | undefined> {
  const [row] = await sql<CompatFeedbackNote[]>`
    /* findCompatFeedbackNote */
    select reason, source, created_at from compat_feedback where mention_id = ${mentionId}`;
  return row;
}

export async function deleteCompatFeedbackNote(sql: Queryable, mentionId: string): Promise<void> {
  await sql`/* deleteCompatFeedbackNote */ delete from compat_feedback where mention_id = ${mentionId}`;
}
