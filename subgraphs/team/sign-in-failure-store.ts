import type { Queryable } from '../../runtime/database.ts';

export const signInFailureLimit = 10;
const windowMinutes = 15;

/**
 * Seconds until `subject` (`account:<email>`) may try again, or null while it
 * has failed fewer than the limit in the current 15-minute window. Counted in
 * PostgreSQL so every process sees the same count.
 */
export async function signInBlockedFor(sql: Queryable, subject: string): Promise<number | null> {
  const [row] = await sql<{ retryAfterSeconds: number }[]>`
    /* signInBlockedFor */
    select ceil(extract(epoch from window_start + make_interval(mins => ${windowMinutes}) - now()))::int as retry_after_seconds
    from sign_in_attempts
    where subject = ${subject} and attempts >= ${signInFailureLimit}
      and window_start = date_bin(make_interval(mins => ${windowMinutes}), now(), timestamptz 'epoch')`;
  return row ? Math.max(1, row.retryAfterSeconds) : null;
}

export async function countSignInFailure(sql: Queryable, subject: string): Promise<void> {
  await sql`
    /* countSignInFailure */
    insert into sign_in_attempts (subject, window_start, attempts)
    values (${subject}, date_bin(make_interval(mins => ${windowMinutes}), now(), timestamptz 'epoch'), 1)
    on conflict (subject, window_start) do update set attempts = sign_in_attempts.attempts + 1`;
}
