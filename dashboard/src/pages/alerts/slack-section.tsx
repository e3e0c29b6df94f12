import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { ActionForm } from '../../ui/action-form';
import { CheckboxGroup, TextField } from '../../ui/fields';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import type { SlackStatusQuery } from '../../graphql/graphql';
import { platformNames } from '../../../../vocabulary/platform-names.ts';
import { SlackInstallDocument, SlackStatusDocument, UpdateSlackNotificationsDocument } from './alert-operations';
import { type SlackChannelChoice, SlackChannelPicker } from './slack-channel-picker';

const platformOptions = Object.entries(platformNames) as [string, string][];

/**
 * The workspace's Slack connection (spec 4.6): the install through Slack's
 * OAuth page, then where notifications go and which mentions they carry.
 */
export function SlackSection() {
  const status = useQuery(SlackStatusDocument, {});
  const current = status.data?.slackStatus;
  const connect = useAction(async () => location.assign((await execute(SlackInstallDocument)).slackInstall.url));

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
          {current.connected && <SlackNotificationsForm notifications={current.notifications} onSaved={(slackStatus) => status.setData(() => ({ slackStatus }))} />}
        </>
      )}
    </Section>
  );
}

type SlackStatus = SlackStatusQuery['slackStatus'];

/**
 * Its fields start from the saved settings in the first render, so the form
 * never shows empty fields that a read or a keystroke could catch before
 * they fill in.
 */
function SlackNotificationsForm({ notifications, onSaved }: { notifications: SlackStatus['notifications']; onSaved: (status: SlackStatus) => void }) {
  const [channel, setChannel] = useState<SlackChannelChoice>({ channelId: notifications.channelId, channelName: notifications.channelName });
  const [minRelevance, setMinRelevance] = useState(notifications.minRelevance === null || notifications.minRelevance === undefined ? '' : String(notifications.minRelevance));
  const [sources, setSources] = useState<string[]>(notifications.sources);
  const save = useAction(async () => {
    const input = { channelId: channel.channelId.trim(), channelName: channel.channelName.trim(), minRelevance: minRelevance === '' ? null : Number(minRelevance), sources };
    const { updateSlackNotifications } = await execute(UpdateSlackNotificationsDocument, { input });
    onSaved(updateSlackNotifications);
    return 'saved';
  });

  return (
    <ActionForm onSubmit={() => void save.run()}>
      <h3>Slack notifications</h3>
      <SlackChannelPicker label="Notification channel" value={channel} onChange={setChannel} />
      <div class="grid-2">
        <TextField label="Lowest relevance notified" type="number" min={0} max={100} value={minRelevance} onInput={setMinRelevance} hint="0 to 100; empty for every relevant mention" />
      </div>
      <CheckboxGroup legend="Platforms notified about (none ticked: all)" options={platformOptions} value={sources} onChange={setSources} />
      <ErrorNotice error={save.error} />
      {save.outcome && <Notice tone="success">Slack notifications saved.</Notice>}
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save Slack notifications'}
      </button>
    </ActionForm>
  );
}
