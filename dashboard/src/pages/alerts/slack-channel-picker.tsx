import { useState } from 'preact/hooks';
import { useQuery } from '../../api/use-query';
import type { SlackChannelsQuery } from '../../graphql/graphql';
import { SelectField, TextField } from '../../ui/fields';
import { ErrorNotice, Loading } from '../../ui/notice';
import { SlackChannelsDocument } from './alert-operations';

/** A Slack channel as the notification settings name it. */
export interface SlackChannelChoice {
  channelId: string;
  channelName: string;
}

/** No channel chosen yet. */
export const noSlackChannel: SlackChannelChoice = { channelId: '', channelName: '' };

type ListedChannel = SlackChannelsQuery['slackChannels']['channels'][number];

const optionLabel = (channel: ListedChannel) => `#${channel.name}${channel.isPrivate ? ' (private)' : ''}`;

/**
 * A Slack channel (where notifications go, or a channel's), picked from the
 * connected workspace's channels (`slackChannels`): a search box narrows a
 * native select, so the keyboard and screen readers work it as any select.
 * When Slack does not list them (not connected, an old install without
 * `groups:read`, Slack away) the error is said and the id and name are typed
 * instead, as they are on request. `label` names the select, and the typed
 * fields after it (`… id`, `… name`). Every form it is in needs a channel, so
 * the select is required: the empty "Choose a channel" is never sent.
 */
export function SlackChannelPicker({ value, onChange, label }: { value: SlackChannelChoice; onChange(value: SlackChannelChoice): void; label: string }) {
  const listing = useQuery(SlackChannelsDocument, {});
  const [search, setSearch] = useState('');
  const [typing, setTyping] = useState(false);

  if (typing || listing.error) {
    return (
      <>
        {listing.error && <ErrorNotice title="Slack's channel list could not be read; type the channel below" error={listing.error} />}
        <div class="grid-2">
          <TextField
            label={`${label} id`}
            required
            maxLength={40}
            value={value.channelId}
            onInput={(channelId) => onChange({ ...value, channelId })}
            hint="At the bottom of the channel's details in Slack (C…)"
          />
          <TextField label={`${label} name`} required maxLength={90} value={value.channelName} onInput={(channelName) => onChange({ ...value, channelName })} />
        </div>
      </>
    );
  }
  if (!listing.data) return <Loading label="Reading the Slack channels" />;

  const channels = listing.data.slackChannels.channels;
  const wanted = search.trim().replace(/^#/, '').toLowerCase();
  const shown = channels.filter((channel) => channel.name.toLowerCase().includes(wanted) || channel.id === value.channelId);
  // A channel saved before (typed, or since archived) stays chosen though Slack no longer lists it.
  const unlisted: [string, string][] = value.channelId && !channels.some((channel) => channel.id === value.channelId) ? [[value.channelId, `#${value.channelName} (not listed by Slack)`]] : [];
  const options: [string, string][] = [
    ['', shown.length + unlisted.length ? 'Choose a channel' : 'No channel matches'],
    ...unlisted,
    ...shown.map((channel): [string, string] => [channel.id, optionLabel(channel)]),
  ];
  const choose = (channelId: string) => {
    const channel = channels.find((listed) => listed.id === channelId);
    if (channel) onChange({ channelId: channel.id, channelName: channel.name });
    else onChange(channelId === value.channelId ? value : noSlackChannel);
  };

  return (
    <div class="grid-2">
      <TextField label="Find a Slack channel" value={search} onInput={setSearch} placeholder="Part of its name" hint={`${shown.length} of ${channels.length} channels`} />
      <SelectField
        label={label}
        required
        value={value.channelId}
        options={options}
        onChange={choose}
        hint={
          <>
            Private channels are listed once the Earshot app is invited to them.{' '}
            <button type="button" class="secondary" onClick={() => setTyping(true)}>
              Type the channel instead
            </button>
          </>
        }
      />
    </div>
  );
}
