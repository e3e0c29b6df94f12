import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import type { ChannelPageQuery } from '../../graphql/graphql';
import { counted, dateTime } from '../../ui/format';
import { ErrorNotice, Notice } from '../../ui/notice';
import { PageHeader, PageLoading, Section } from '../../ui/page';
import { platformName } from '../../../../vocabulary/platform-names.ts';
import { ChannelPageDocument, DeleteChannelDocument, RotateChannelSecretDocument, TestChannelDocument } from './alert-operations';
import { destination, TestOutcomes } from './channel-labels';
import { ChannelSettingsForm } from './channel-settings-form';
import { DataTable } from '../../ui/data-table';

type Delivery = ChannelPageQuery['channelDeliveries']['nodes'][number];

/** Instant deliveries are tried up to 5 times about 30 seconds apart (spec 3.4); digests for up to 6 hours. */
const instantAttempts = 5;

/** What the status chip beside it does not already say: the attempt it took, or where the retries stand; null when nothing is left to say. */
function retryState(delivery: Delivery): string | null {
  if (delivery.status === 'delivered') return delivery.attempts > 1 ? `on attempt ${delivery.attempts}` : null;
  if (delivery.status === 'failed') return `after ${counted(delivery.attempts, 'attempt')}`;
  if (delivery.attempts === 0) return 'waiting to be sent';
  return delivery.kind === 'digest' ? `retrying (attempt ${delivery.attempts})` : `retrying (attempt ${delivery.attempts} of ${instantAttempts})`;
}

const statusTone: Record<string, string> = { delivered: 'chip-good', failed: 'chip-bad', pending: 'chip-warn' };

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const retry = retryState(delivery);
  return (
    <tr>
      <td class="nowrap">{dateTime(delivery.createdAt)}</td>
      <td>
        {delivery.kind}
        {delivery.event && <div class="muted">{delivery.event}</div>}
        {delivery.alert && <div class="muted">{delivery.alert.name}</div>}
      </td>
      <td class="wrap">
        {delivery.mention ? (
          <>
            <a href={delivery.mention.url}>{platformName(delivery.mention.platform)}</a> {delivery.mention.text}
          </>
        ) : (
          '—'
        )}
      </td>
      <td>
        <span class={`chip ${statusTone[delivery.status] ?? ''}`}>{delivery.status}</span>
        {retry && <div class="muted">{retry}</div>}
      </td>
      <td class="wrap">
        {delivery.error ?? ''}
        {delivery.attemptLog.length > 0 && (
          <details>
            <summary>{counted(delivery.attemptLog.length, 'attempt')}</summary>
            <ol>
              {delivery.attemptLog.map((attempt) => (
                <li key={attempt.at}>
                  {dateTime(attempt.at)}: {attempt.status ?? 'no answer'}
                  {attempt.error && ` (${attempt.error})`}
                </li>
              ))}
            </ol>
          </details>
        )}
      </td>
    </tr>
  );
}

/** One channel: its delivery log with each delivery's retry state, a test send, secret rotation and deletion. */
export default function ChannelPage({ id }: { id: string }) {
  const [after, setAfter] = useState<string>();
  const page = useQuery(ChannelPageDocument, { id, after });
  const { route } = useLocation();
  const [secret, setSecret] = useState<string | null>();
  const test = useAction(async () => {
    const { outcomes } = (await execute(TestChannelDocument, { id })).testChannel;
    await page.refetch();
    return outcomes;
  });
  const rotate = useAction(async () => {
    if (!confirm('Make a new signing secret? The old one stops verifying at once.')) return;
    setSecret((await execute(RotateChannelSecretDocument, { id })).rotateChannelSecret.config.secret);
  });
  const remove = useAction(async () => {
    if (!confirm('Delete this channel? It leaves every rule.')) return;
    await execute(DeleteChannelDocument, { id });
    route('/alerts');
  });

  if (!page.data) {
    return <PageLoading title="Channel" error={page.error} label="Loading the channel" />;
  }
  const { channel, channelDeliveries } = page.data;
  return (
    <>
      <PageHeader title={channel.label}>
        <button type="button" disabled={test.busy} onClick={() => void test.run()}>
          {test.busy ? 'Sending…' : 'Send a test'}
        </button>
        {channel.kind === 'webhook' && (
          <button type="button" class="secondary" disabled={rotate.busy} onClick={() => void rotate.run()}>
            Rotate secret
          </button>
        )}
        <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run()}>
          Delete
        </button>
      </PageHeader>
      <p>
        <a href="/alerts">All channels</a> · {channel.kind} to {destination(channel)} · used by {counted(channel.stats.alerts, 'rule')} ({channel.stats.activeAlerts} on)
      </p>
      {channel.config.events.length > 0 && <p class="muted">Account events: {channel.config.events.join(', ')}</p>}
      {[test.error, rotate.error, remove.error].map((error, index) => (
        <ErrorNotice key={index} error={error} />
      ))}
      {test.outcome && <TestOutcomes outcomes={test.outcome} />}
      {secret && (
        <Notice tone="success">
          The new signing secret, shown only now: <code class="secret">{secret}</code>
        </Notice>
      )}
      <Section title="Settings">
        <ChannelSettingsForm key={channel.id} channel={channel} onSaved={() => void page.refetch()} />
      </Section>
      <Section title="Delivery log">
        {channelDeliveries.nodes.length === 0 ? (
          <p class="empty">Nothing was delivered to this channel yet.</p>
        ) : (
          <DataTable label="Deliveries, newest first" columns={['Created', 'What', 'Mention', 'Status', 'Error and attempts']}>
            {channelDeliveries.nodes.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </DataTable>
        )}
        <div class="form-actions">
          {after && (
            <button type="button" class="secondary" onClick={() => setAfter(undefined)}>
              Newest
            </button>
          )}
          {channelDeliveries.nextCursor && (
            <button type="button" class="secondary" onClick={() => setAfter(channelDeliveries.nextCursor ?? undefined)}>
              Older
            </button>
          )}
        </div>
      </Section>
    </>
  );
}
