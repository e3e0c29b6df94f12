import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import type { AlertsPageQuery } from '../../graphql/graphql';
import { count, counted, utcScheduleHere } from '../../ui/format';
import { RelativeTime } from '../../ui/relative-time';
import { ErrorNotice } from '../../ui/notice';
import { PageHeader, PageLoading, Section } from '../../ui/page';
import { AlertRuleForm, instantEvents } from './alert-rule-form';
import { AlertsPageDocument, DeleteAlertRuleDocument, RunAlertRuleDocument, TestAlertRuleDocument, TestChannelDocument, UpdateAlertRuleDocument } from './alert-operations';
import { ChannelForm } from './channel-form';
import { destination, TestOutcomes } from './channel-labels';
import { SlackSection } from './slack-section';
import { DataTable } from '../../ui/data-table';

type Channel = AlertsPageQuery['channels'][number];
type Rule = AlertsPageQuery['alertRules'][number];

function ChannelRow({ channel, onTested }: { channel: Channel; onTested(): void }) {
  // A test send is a delivery (spec 4.6): the row's count and last delivery are read again after it.
  const test = useAction(async () => {
    const { outcomes } = (await execute(TestChannelDocument, { id: channel.id })).testChannel;
    onTested();
    return outcomes;
  });
  return (
    <tr>
      <th scope="row">
        <a href={`/alerts/channels/${channel.id}`}>{channel.label}</a>
        <div class="muted">{channel.kind}</div>
      </th>
      <td class="wrap">{destination(channel)}</td>
      <td class="number">
        {count(channel.stats.last7d.total)}
        {channel.stats.last7d.failed > 0 && <span class="chip chip-bad">{channel.stats.last7d.failed} failed</span>}
      </td>
      <td>{channel.stats.lastDeliveryAt ? <RelativeTime iso={channel.stats.lastDeliveryAt} /> : 'never'}</td>
      <td>
        <button type="button" class="secondary" disabled={test.busy} onClick={() => void test.run()}>
          {test.busy ? 'Sending…' : <>Send a test<span class="visually-hidden"> to {channel.label}</span></>}
        </button>
        <ErrorNotice error={test.error} />
        {test.outcome && <TestOutcomes outcomes={test.outcome} />}
      </td>
    </tr>
  );
}

function RuleRow({ rule, channels, onChanged }: { rule: Rule; channels: Channel[]; onChanged(): void }) {
  const toggle = useAction(async () => {
    await execute(UpdateAlertRuleDocument, { id: rule.id, input: { enabled: !rule.enabled } });
    onChanged();
  });
  const test = useAction(async () => (await execute(TestAlertRuleDocument, { id: rule.id })).testAlertRule.outcomes);
  const run = useAction(async () => {
    const { runAlertRule } = await execute(RunAlertRuleDocument, { id: rule.id });
    return `Digest of ${counted(runAlertRule.mentions, 'mention')} sent to ${counted(runAlertRule.deliveryIds.length, 'channel')}`;
  });
  const remove = useAction(async () => {
    if (!confirm(`Delete the rule “${rule.name}”?`)) return;
    await execute(DeleteAlertRuleDocument, { id: rule.id });
    onChanged();
  });
  const names = rule.channelIds.map((id) => channels.find((channel) => channel.id === id)?.label ?? id);
  // A digest made without an hour runs at 09:00 UTC (README, alert rules).
  const hour = rule.schedule?.hour ?? 9;
  const here = utcScheduleHere(hour, rule.schedule?.weekday);
  const when =
    rule.mode === 'instant'
      ? `instantly: ${instantEvents.find(([event]) => event === rule.event)?.[1] ?? rule.event}`
      : `${rule.mode} at ${hour}:00 UTC${rule.schedule?.weekday ? ` on ${rule.schedule.weekday}` : ''}${here ? ` (${here} here)` : ''}`;
  return (
    <tr>
      <th scope="row">
        {rule.name}
        {!rule.enabled && <span class="chip">off</span>}
      </th>
      <td class="wrap">{when}</td>
      <td>{names.join(', ') || 'no channel'}</td>
      <td class="actions">
        <button type="button" class="secondary" disabled={toggle.busy} onClick={() => void toggle.run()}>
          {rule.enabled ? 'Turn off' : 'Turn on'}
          <span class="visually-hidden"> {rule.name}</span>
        </button>
        <button type="button" class="secondary" disabled={test.busy} onClick={() => void test.run()}>
          Test<span class="visually-hidden"> {rule.name}</span>
        </button>
        {rule.mode !== 'instant' && (
          <button type="button" class="secondary" disabled={run.busy} onClick={() => void run.run()}>
            Run now<span class="visually-hidden"> {rule.name}</span>
          </button>
        )}
        <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run()}>
          Delete<span class="visually-hidden"> {rule.name}</span>
        </button>
        {[toggle.error, test.error, run.error, remove.error].map((error, index) => (
          <ErrorNotice key={index} error={error} />
        ))}
        {test.outcome && <TestOutcomes outcomes={test.outcome} />}
        {run.outcome && <p role="status">{run.outcome}</p>}
      </td>
    </tr>
  );
}

/** Channels (create, test) and the alert rules that send to them (spec 2.8, 2.9, 4.6). */
export default function AlertsPage() {
  const page = useQuery(AlertsPageDocument, {});
  if (!page.data) {
    return <PageLoading title="Alerts & channels" error={page.error} label="Loading channels" />;
  }
  const { channels, alertRules } = page.data;
  return (
    <>
      <PageHeader title="Alerts & channels" />
      <Section title="Channels">
        {channels.length === 0 ? (
          <p class="empty">No channels yet.</p>
        ) : (
          <DataTable label="Channels" columns={['Channel', 'Delivers to', { label: 'Last 7 days', number: true }, 'Last delivery', 'Test']}>
            {channels.map((channel) => (
              <ChannelRow key={channel.id} channel={channel} onTested={() => void page.refetch()} />
            ))}
          </DataTable>
        )}
        <h3>New channel</h3>
        <ChannelForm onCreated={() => void page.refetch()} />
      </Section>
      <Section title="Alert rules">
        {alertRules.length === 0 ? (
          <p class="empty">No rules yet: a rule sends matching mentions to channels, instantly or as a digest.</p>
        ) : (
          <DataTable label="Alert rules" columns={['Rule', 'When', 'Channels', 'Actions']}>
            {alertRules.map((rule) => (
              <RuleRow key={rule.id} rule={rule} channels={channels} onChanged={() => void page.refetch()} />
            ))}
          </DataTable>
        )}
        <h3>New rule</h3>
        <AlertRuleForm data={page.data} onCreated={() => void page.refetch()} />
      </Section>
      <SlackSection />
    </>
  );
}
