import { useEffect, useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { ActionForm } from '../../ui/action-form';
import { CheckboxGroup, TextField } from '../../ui/fields';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { platformNames } from '../../../../vocabulary/platform-names.ts';
import { SlackInstallDocument, SlackStatusDocument, UpdateSlackNotificationsDocument } from './alert-operations';

const platformOptions = Object.entries(platformNames) as [string, string][];

/**
 * The workspace's Slack connection (spec 4.6): the install through Slack's
 * OAuth page, then where notifications go and which mentions they carry.
 */
export function SlackSection() {
  const status = useQuery(SlackStatusDocument, {});
  const [channelId, setChannelId] = useState('');
  const [channelName, setChannelName] = useState('');
  const [minRelevance, setMinRelevance] = useState('');
  const [sources, setSources] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const current = status.data?.slackStatus;
  useEffect(() => {
    if (!current) return;
    setChannelId(current.notifications.channelId);
    setChannelName(current.notifications.channelName);
    setMinRelevance(current.notifications.minRelevance === null || current.notifications.minRelevance === undefined ? '' : String(current.notifications.minRelevance));
    setSources(current.notifications.sources);
  }, [current]);
  const connect = useAction(async () => location.assign((await execute(SlackInstallDocument)).slackInstall.url));
  const save = useAction(async () => {
    setSaved(false);
    const input = { channelId: channelId.trim(), channelName: channelName.trim(), minRelevance: minRelevance === '' ? null : Number(minRelevance), sources };
    const { updateSlackNotifications } = await execute(UpdateSlackNotificationsDocument, { input });
    status.setData(() => ({ slackStatus: updateSlackNotifications }));
    setSaved(true);
  });

  return (
    <Section title="Slack">
      {!current ? (
        status.error ? <ErrorNotice error={status.error} /> : <Loading label="Reading the Slack connection" />
      ) : !current.configured ? (
        <p class="muted">This Earshot has no Slack app configured (EARSHOT_SLACK_CLIENT_ID and its secrets).</p>
      ) : (
        <>
          <p>
            {current.connected ? <>Connected to the Slack workspace <strong>{current.teamName}</strong>.</> : 'Not connected: install the Earshot app in your Slack workspace first.'}{' '}
            <button type="button" class="secondary" disabled={connect.busy} onClick={() => void connect.run()}>
              {current.connected ? 'Reconnect Slack' : 'Connect Slack'}
            </button>
          </p>
          <ErrorNotice error={connect.error} />
          {current.connected && (
            <ActionForm onSubmit={() => void save.run()}>
              <h3>Slack notifications</h3>
              <div class="grid-2">
                <TextField label="Notification channel id" required maxLength={40} value={channelId} onInput={setChannelId} hint="At the bottom of the channel's details in Slack (C…)" />
                <TextField label="Notification channel name" required maxLength={90} value={channelName} onInput={setChannelName} />
                <TextField label="Lowest relevance notified" type="number" min={0} max={100} value={minRelevance} onInput={setMinRelevance} hint="0 to 100; empty for every relevant mention" />
              </div>
              <CheckboxGroup legend="Platforms notified about (none ticked: all)" options={platformOptions} value={sources} onChange={setSources} />
              <ErrorNotice error={save.error} />
              {saved && <Notice tone="success">Slack notifications saved.</Notice>}
              <button type="submit" disabled={save.busy}>
                {save.busy ? 'Saving…' : 'Save Slack notifications'}
              </button>
            </ActionForm>
          )}
        </>
      )}
    </Section>
  );
}
