import type { TestChannelMutation } from '../../graphql/graphql';

/** What a test send answers for one channel. */
export type TestOutcome = TestChannelMutation['testChannel']['outcomes'][number];

/** How channels and test sends read on the alert pages (spec 2.8). */

export const channelKinds = [
  ['webhook', 'Webhook'],
  ['slack', 'Slack'],
  ['telegram', 'Telegram'],
  ['email', 'E-mail'],
] as const;

export type ChannelKind = (typeof channelKinds)[number][0];

/** The account events a webhook can subscribe to (spec 6.4). */
export const accountEvents = ['keyword.capped', 'keyword.paused_for_balance', 'keyword.resumed', 'wallet.low', 'wallet.paused', 'wallet.resumed'] as const;

/** Where a channel delivers, in a few words. */
export function destination(channel: { kind: string; config: { url?: string | null; chatId?: string | null; channelName?: string | null; address?: string | null; confirmed?: boolean | null } }): string {
  const { config } = channel;
  if (channel.kind === 'webhook') return config.url ?? '';
  if (channel.kind === 'slack') return `#${config.channelName ?? ''}`;
  if (channel.kind === 'telegram') return `chat ${config.chatId ?? ''}`;
  if (channel.kind === 'email') return `${config.address ?? ''}${config.confirmed ? '' : ' (waiting for confirmation)'}`;
  return channel.kind;
}

export function TestOutcomes({ outcomes }: { outcomes: TestOutcome[] }) {
  return (
    <ul class="outcomes" role="status">
      {outcomes.map((outcome) => (
        <li key={outcome.channelId} class={outcome.ok ? 'outcome-ok' : 'outcome-failed'}>
          {outcome.ok ? 'Test delivered' : `Test failed: ${outcome.error ?? 'no reason given'}`}
        </li>
      ))}
    </ul>
  );
}
