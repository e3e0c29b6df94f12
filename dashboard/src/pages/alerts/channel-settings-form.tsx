import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useAction } from '../../api/use-query';
import type { ChannelPageQuery, UpdateChannelInput } from '../../graphql/graphql';
import { ActionForm } from '../../ui/action-form';
import { CheckboxGroup, LinesField, TextField } from '../../ui/fields';
import { ErrorNotice, Notice } from '../../ui/notice';
import { UpdateChannelDocument } from './alert-operations';
import { accountEvents } from './channel-labels';
import { SlackChannelPicker } from './slack-channel-picker';

type Channel = ChannelPageQuery['channel'];

const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
const headersOf = (lines: string[]) => Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]));

/**
 * A channel's settings, as `updateChannel` takes them for its kind (a
 * webhook's URL, headers and events, a Telegram chat, a Slack channel; an
 * e-mail address is confirmed once and not changed): only what changed is sent.
 */
export function ChannelSettingsForm({ channel, onSaved }: { channel: Channel; onSaved(): void }) {
  const { config } = channel;
  const start = {
    label: channel.label,
    url: config.url ?? '',
    headers: headerLines((config.headers ?? {}) as Record<string, string>),
    events: config.events,
    chatId: config.chatId ?? '',
    channelId: config.channelId ?? '',
    channelName: config.channelName ?? '',
  };
  const [form, setForm] = useState(start);
  const set = (change: Partial<typeof start>) => {
    save.reset();
    setForm((current) => ({ ...current, ...change }));
  };
  const kindFields: Record<string, (keyof typeof start)[]> = { webhook: ['url', 'headers', 'events'], telegram: ['chatId'], slack: ['channelId', 'channelName'], email: [] };
  const changed = (['label', ...(kindFields[channel.kind] ?? [])] as (keyof typeof start)[]).filter((field) => JSON.stringify(form[field]) !== JSON.stringify(start[field]));
  const save = useAction(async () => {
    const input: UpdateChannelInput = {};
    for (const field of changed) {
      if (field === 'headers') input.headers = headersOf(form.headers);
      else if (field === 'events') input.events = form.events;
      else input[field] = form[field].trim();
    }
    await execute(UpdateChannelDocument, { id: channel.id, input });
    onSaved();
    return 'saved';
  });
  return (
    <ActionForm onSubmit={() => void save.run()}>
      <div class="grid-2">
        <TextField label="Label" required value={form.label} onInput={(label) => set({ label })} />
        {channel.kind === 'webhook' && <TextField label="Webhook URL" type="url" required value={form.url} onInput={(url) => set({ url })} />}
        {channel.kind === 'telegram' && <TextField label="Telegram chat id" required value={form.chatId} onInput={(chatId) => set({ chatId })} />}
      </div>
      {channel.kind === 'slack' && <SlackChannelPicker label="Slack channel" value={{ channelId: form.channelId, channelName: form.channelName }} onChange={set} />}
      {channel.kind === 'webhook' && (
        <>
          <LinesField label="Extra headers" value={form.headers} onChange={(headers) => set({ headers })} hint="One per line, Name: value" />
          <CheckboxGroup legend="Account events to receive" options={accountEvents.map((event) => [event, event] as [string, string])} value={form.events} onChange={(events) => set({ events })} />
        </>
      )}
      {channel.kind === 'email' && <p class="muted">The address {config.address} is confirmed once and cannot change; add another channel for another address.</p>}
      <ErrorNotice error={save.error} />
      {save.outcome && <Notice tone="success">Channel settings saved.</Notice>}
      <button type="submit" disabled={save.busy || changed.length === 0}>
        {changed.length === 0 ? 'No changes' : `Save ${changed.length} ${changed.length === 1 ? 'change' : 'changes'}`}
      </button>
    </ActionForm>
  );
}
