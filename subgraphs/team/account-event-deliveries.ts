import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { listAccountEventsAfter } from '../billing/index.ts';
import type { EventSubscription } from './channel-store.ts';
import { envelopeBody } from './delivery-envelope.ts';
import { insertDeliveries, type NewDelivery } from './delivery-store.ts';
import { mailSettings } from './mailer.ts';
import { listOwnersTakingEmails } from './member-store.ts';

/** Events read from the outbox per pass. */
const batchSize = 500;

/**
 * A gap in the outbox's sequence is an event whose transaction has not
 * committed yet, or rolled back. Whatever transaction holds it was running
 * when the gap was first seen, so the gap is passed once every transaction
 * running then has ended (the snapshot's `xmin` reached that sighting's
 * `xmax`): a late commit is visible by then, however long its transaction
 * took; a clock alone skipped an event committed more than a minute after
 * the next one. The sightings live in this process, by the sequence number
 * before the gap: a process that did not see a gap sees it anew, later,
 * which is as safe.
 */
const gapHorizons = new Map<number, bigint>();

const snapshotXmin = async (tx: Queryable) =>
  BigInt((await tx<{ xmin: string }[]>`/* outboxSnapshotXmin */ select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`)[0].xmin);
const snapshotXmax = async (tx: Queryable) =>
  BigInt((await tx<{ xmax: string }[]>`/* outboxSnapshotXmax */ select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`)[0].xmax);

/** The account events every owner of the workspace is also e-mailed about (spec 6.4, last line). */
export const ownerEmailEvents: readonly string[] = ['wallet.low', 'wallet.paused', 'keyword.capped'];

/**
 * Turns account events recorded since the last pass into one delivery per
 * webhook channel that was subscribed to the event's name when the event
 * was recorded (spec 6.4), in recording order; `alert` is null. The events
 * of `ownerEmailEvents` also become one e-mail per owner who has not turned
 * them off, when this install sends e-mail. One dispatcher does it at a time
 * (the cursor row is locked), and the deliveries' unique keys make a
 * repeated pass harmless: an event is mailed to an owner once, and its
 * retries keep the delivery's id.
 */
export async function fanOutAccountEvents(sql: Sql, now: Date, env: NodeJS.ProcessEnv): Promise<number> {
  return sql.begin(async (tx) => {
    const [cursor] = await tx<{ lastSeq: number }[]>`
      /* lockAccountEventFanout */
      select last_seq::float8 as last_seq from account_event_fanout for update skip locked`;
    if (!cursor) return 0;
    for (const seq of gapHorizons.keys()) if (seq < cursor.lastSeq) gapHorizons.delete(seq);
    // Taken before the events are read: a transaction ended by then has its event in the read, or never will.
    const endedBefore = await snapshotXmin(tx);
    const events = await listAccountEventsAfter(tx, cursor.lastSeq, batchSize);
    let lastSeq = cursor.lastSeq;
    const taken: typeof events = [];
    for (const event of events) {
      if (event.seq !== lastSeq + 1) {
        // Taken after the read: every transaction that could still commit the missing events is below it.
        const horizon = gapHorizons.get(lastSeq) ?? (await snapshotXmax(tx));
        gapHorizons.set(lastSeq, horizon);
        if (endedBefore < horizon) break;
        gapHorizons.delete(lastSeq);
      }
      taken.push(event);
      lastSeq = event.seq;
    }
    if (taken.length === 0) return 0;
    const channels = await tx<{ id: string; workspaceId: string; events: EventSubscription[] }[]>`
      /* subscribedChannels */
      select id, workspace_id, events from channels
      where kind = 'webhook' and events <> '[]'::jsonb
        and workspace_id = any(${tx.array([...new Set(taken.map((event) => event.workspaceId))])})`;
    // One target per subscribed channel and per owner mailed, in recording order.
    const targets: { event: (typeof taken)[number]; channelId?: string; userId?: string }[] = taken.flatMap((event) =>
      channels
        .filter(
          (channel) =>
            channel.workspaceId === event.workspaceId &&
            channel.events.some((subscription) => subscription.name === event.name && new Date(subscription.since) <= event.createdAt),
        )
        .map((channel) => ({ event, channelId: channel.id })),
    );
    const mailed = taken.filter((event) => ownerEmailEvents.includes(event.name));
    if (mailed.length && mailSettings(env)) {
      const owners = await listOwnersTakingEmails(tx, [...new Set(mailed.map((event) => event.workspaceId))]);
      for (const event of mailed) {
        for (const owner of owners.filter((candidate) => candidate.workspaceId === event.workspaceId)) targets.push({ event, userId: owner.userId });
      }
    }
    // Ids drawn in the same millisecond are ordered by chance: sorted, they follow the recording order, which is the order deliveries are claimed and sent in.
    const ids = targets.map(() => newId('dlv')).sort();
    const deliveries: NewDelivery[] = targets.map(({ event, channelId, userId }, i) => ({
      id: ids[i],
      workspaceId: event.workspaceId,
      ...(channelId ? { channelId } : { userId }),
      kind: 'event' as const,
      event: event.name,
      accountEventId: event.id,
      body: envelopeBody({ id: ids[i], event: event.name, createdAt: now, alert: null, data: event.data }),
    }));
    await insertDeliveries(tx, deliveries, now);
    await tx`/* advanceAccountEventFanout */ update account_event_fanout set last_seq = ${lastSeq}`;
    return deliveries.length;
  });
}
