import type { Queryable, Sql } from '../../runtime/database.ts';
import { recordAccountEvents, type AccountEvent } from './account-event-store.ts';
import { nextCapPeriodStart } from './cap-period.ts';
import { type CapStateFilter, type KeywordCapState, keywordCapStates, setPausedForCap } from './keyword-accounting-store.ts';
import { keywordCapped, keywordResumed, type ResumeReason } from './run-state-events.ts';

export const capReached = (state: Pick<KeywordCapState, 'capMentions' | 'used'>) => state.capMentions !== null && state.used >= state.capMentions;

/**
 * Brings `pausedForCap` in line with each keyword's cap and count (3.1): a
 * keyword at or over its cap is capped with keyword.capped, a capped one
 * under it (cap raised, removed, or a new period) resumes with
 * keyword.resumed and the reason `liftedBecause` gives. A muted keyword's
 * flag follows too, but it neither stopped nor listens again, so no event.
 */
async function settleCaps(sql: Queryable, states: KeywordCapState[], now: Date, liftedBecause: (state: KeywordCapState) => ResumeReason) {
  const toCap = states.filter((state) => !state.pausedForCap && capReached(state));
  const toLift = states.filter((state) => state.pausedForCap && !capReached(state));
  const capped = await setPausedForCap(sql, toCap.map((state) => state.id), true);
  const lifted = await setPausedForCap(sql, toLift.map((state) => state.id), false);
  const byId = new Map(states.map((state) => [state.id, state]));
  const events: AccountEvent[] = [
    ...capped
      .filter((keyword) => !keyword.muted)
      .map((keyword) => {
        const state = byId.get(keyword.id)!;
        return keywordCapped(
          keyword,
          { mentions: state.capMentions!, thisMonth: state.usedThisMonth, resumesAt: nextCapPeriodStart(state.capPer, now) },
          now,
        );
      }),
    ...lifted.filter((keyword) => !keyword.muted).map((keyword) => keywordResumed(keyword, liftedBecause(byId.get(keyword.id)!), now)),
  ];
  await recordAccountEvents(sql, events);
  return { capped: new Set(capped.map((keyword) => keyword.id)), lifted: new Set(lifted.map((keyword) => keyword.id)) };
}

const raisedOrRemoved = (state: KeywordCapState): ResumeReason => (state.capMentions === null ? 'cap_removed' : 'cap_raised');

/** The part of a keyword a cap change reads and updates. */
export interface KeywordCapSetting {
  id: string;
  capMentions: number | null;
  capPer: string | null;
  pausedForCap: boolean;
}

/**
 * A keyword PATCH that changed the cap, inside its transaction (3.1): raised
 * above the period's count resumes (`cap_raised`), removed resumes
 * (`cap_removed`), set at or under the count caps at once. While the
 * workspace is on its welcome credit the welcome cap applies and the user's
 * own cap only waits for the first top-up. Returns the keyword as it is now.
 */
export async function applyCapChange<Keyword extends KeywordCapSetting>(sql: Queryable, before: Keyword, after: Keyword, now: Date): Promise<Keyword> {
  if (before.capMentions === after.capMentions && before.capPer === after.capPer) return after;
  const states = await keywordCapStates(sql, { keywordIds: [after.id] }, now);
  const { capped, lifted } = await settleCaps(sql, states, now, raisedOrRemoved);
  if (capped.has(after.id)) return { ...after, pausedForCap: true };
  if (lifted.has(after.id)) return { ...after, pausedForCap: false };
  return after;
}

/** The first paid credit ended the welcome credit: every keyword of the workspace now has its own cap (2.1.1). */
export async function applyOwnCaps(sql: Queryable, workspaceId: string, now: Date): Promise<void> {
  await settleCaps(sql, await keywordCapStates(sql, { workspaceId }, now), now, raisedOrRemoved);
}

/**
 * A new cap period started (UTC day, Monday or calendar month): every capped
 * keyword whose count in its new period is under its cap resumes, with
 * reason `month_turned` whatever the period (spec 3.1 names that one reason
 * for a day, week or month turning).
 */
export async function resumeCapsAtPeriodTurn(sql: Sql, now: Date): Promise<number> {
  return (await sql.begin(async (tx) => {
    const filter: CapStateFilter = { pausedForCap: true };
    const { lifted } = await settleCaps(tx, await keywordCapStates(tx, filter, now, { lock: true }), now, () => 'month_turned');
    return lifted.size;
  })) as number;
}

/** Caps the keyword once a charge took it to its cap, with keyword.capped. */
export async function capAfterCharge(sql: Queryable, state: KeywordCapState, now: Date): Promise<void> {
  await settleCaps(sql, [state], now, raisedOrRemoved);
}
