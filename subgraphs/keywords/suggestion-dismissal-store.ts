import type { Queryable } from '../../runtime/database.ts';

/** The suggestions of a keyword that were dismissed, by their identity (`suggestionIdentity`). */
export async function listDismissedSuggestions(sql: Queryable, keywordId: string): Promise<Set<string>> {
  const rows = await sql<{ suggestion: string }[]>`
    /* listDismissedSuggestions */
    select suggestion from keyword_suggestion_dismissals where keyword_id = ${keywordId}`;
  return new Set(rows.map((row) => row.suggestion));
}

/** Remembers suggestions of a keyword as dismissed; dismissing one twice keeps the first time. */
export async function dismissSuggestions(sql: Queryable, keywordId: string, suggestions: readonly string[], now: Date): Promise<void> {
  if (suggestions.length === 0) return;
  await sql`
    /* dismissSuggestions */
    insert into keyword_suggestion_dismissals (keyword_id, suggestion, dismissed_at)
    select ${keywordId}, suggestion, ${now} from unnest(${sql.array([...suggestions])}::text[]) as suggestion
    on conflict do nothing`;
}
