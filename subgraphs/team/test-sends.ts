import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { valueWithin } from '../../runtime/value-within.ts';
import type { ChannelRow } from './channel-store.ts';
import { type EnvelopeAlert, envelopeBody } from './delivery-envelope.ts';
import { attemptResult, type DeliverySettings, sendChannelDelivery } from './delivery-sending.ts';
import { insertDeliveries, recordDeliveryAttempt } from './delivery-store.ts';

export interface TestOutcome {
  channelId: string;
  ok: boolean;
  error: string | null;
}

const testMessage = 'This is a test delivery from Earshot. Your channel is set up.';

/**
 * How long a test waits for the endpoint's answer. Every request is answered
 * within the operating contract's 5 s (the public server's 4.5 s deadline,
 * past which it says the database is not answering), while an endpoint may
 * take 10 s (spec 6.1); a slower answer is not waited for, and the send goes
 * on to its own time-out and into the delivery log.
 */
export const testSendWaitMs = 3500;

/**
 * Sends event `test` (`data.message`) through each channel now, once, and
 * says how each went within `testSendWaitMs`; each send is in the channel's
 * delivery log as a `test`. Runs while the caller waits, all channels at once.
 */
export async function sendTestDeliveries(sql: Queryable, channels: readonly ChannelRow[], alert: EnvelopeAlert, settings: DeliverySettings, now: () => Date): Promise<TestOutcome[]> {
  return Promise.all(
    channels.map(async (channel): Promise<TestOutcome> => {
      const createdAt = now();
      const id = newId('dlv');
      const body = envelopeBody({ id, event: 'test', createdAt, alert, data: { message: testMessage } });
      // Leased for longer than the send may take, so no dispatcher takes it meanwhile; marked as under way, so that should this process die, the dispatcher records the attempt rather than sends it again.
      const lease = new Date(createdAt.getTime() + settings.timeoutMs + 60_000);
      await insertDeliveries(
        sql,
        [{ id, workspaceId: channel.workspaceId, channelId: channel.id, kind: 'test', event: 'test', body, alertId: alert?.id ?? null, alertName: alert?.name ?? null, nextAttemptAt: lease, attemptStartedAt: createdAt }],
        createdAt,
      );
      const sending = (async () => {
        const outcome = await sendChannelDelivery(sql, { id, kind: 'test', body }, channel, settings, now());
        await recordDeliveryAttempt(sql, id, attemptResult({ kind: 'test', attempts: 0, giveUpAt: null }, outcome, now(), settings.retryDelaySeconds));
        return outcome;
      })();
      const outcome = await valueWithin(sending, testSendWaitMs);
      if (!outcome) {
        // Left to finish on its own: should recording the attempt fail, the lease lets a dispatcher settle the delivery.
        sending.catch(() => undefined);
        const error = `no answer within ${testSendWaitMs / 1000} s; the endpoint has ${settings.timeoutMs / 1000} s, and the delivery log will show how the test went`;
        return { channelId: channel.id, ok: false, error };
      }
      return { channelId: channel.id, ok: outcome.ok, error: outcome.ok ? null : outcome.error };
    }),
  );
}
