import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction } from '../../api/use-query';
import { CheckboxGroup, SelectField, TextField } from '../../ui/fields';
import { ErrorNotice, Notice } from '../../ui/notice';
import { CreateChannelDocument } from './alert-operations';
import { accountEvents, type ChannelKind, channelKinds } from './channel-labels';
import { ActionForm } from '../../ui/action-form';
import { noSlackChannel, type SlackChannelChoice, SlackChannelPicker } from './slack-channel-picker';

/** A new channel of any kind; a webhook's signing secret is shown here once (spec 2.8). */
export function ChannelForm({ onCreated }: { onCreated(): void }) {
  const [kind, setKind] = useState<ChannelKind>('webhook');
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [chatId, setChatId] = useState('');
  const [slackChannel, setSlackChannel] = useState<SlackChannelChoice>(noSlackChannel);
  const [address, setAddress] = useState('');
  const [created, setCreated] = useState<{ label: string; secret?: string | null }>();
  const create = useAction(async () => {
    const byKind = {
      webhook: { url, events },
      slack: slackChannel,
      telegram: { chatId },
      email: { address },
    }[kind];
    const { createChannel } = await execute(CreateChannelDocument, { input: { kind, label: label || undefined, ...byKind } });
    setCreated({ label: createChannel.label, secret: createChannel.config.secret });
    // The next channel starts blank, whatever its kind: an e-mail address or chat id left in place read as still to be sent.
    setLabel('');
    setUrl('');
    setEvents([]);
    setChatId('');
    setSlackChannel(noSlackChannel);
    setAddress('');
    onCreated();
  });

  return (
    <ActionForm onSubmit={() => { setCreated(undefined); void create.run(); }}>
      <div class="grid-2">
        <SelectField label="Kind" value={kind} options={channelKinds} onChange={setKind} />
        <TextField label="Label" value={label} onInput={setLabel} hint="How the channel is named in rules and logs" />
        {kind === 'webhook' && <TextField label="Webhook URL" type="url" required value={url} onInput={setUrl} hint="Receives signed JSON POSTs" />}
        {kind === 'telegram' && <TextField label="Telegram chat id" required value={chatId} onInput={setChatId} hint="A numeric chat id, or @name of a public channel; add the bot first" />}
        {kind === 'email' && <TextField label="E-mail address" type="email" required value={address} onInput={setAddress} hint="A confirmation link is mailed first; nothing else is sent before it is opened" />}
      </div>
      {kind === 'slack' && <SlackChannelPicker label="Slack channel" value={slackChannel} onChange={setSlackChannel} />}
      {kind === 'webhook' && <CheckboxGroup legend="Account events to receive" options={accountEvents.map((event) => [event, event] as [string, string])} value={events} onChange={setEvents} />}
      <ErrorNotice error={create.error} />
      {created && (
        <Notice tone="success">
          Channel “{created.label}” created.
          {created.secret && (
            <>
              {' '}
              Its signing secret is shown only now:
              <code class="secret" aria-label="Signing secret">
                {created.secret}
              </code>
            </>
          )}
        </Notice>
      )}
      <button type="submit" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create channel'}
      </button>
    </ActionForm>
  );
}
