import 'reflect-metadata';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { cursorTime, decodeCursor, pageOf, pageSize } from '../cursor-pages.ts';
import { domainError, notFound } from '../domain-error.ts';
import { JsonScalar } from '../json-scalar.ts';
import { countChannelRules } from '../mentions/index.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { assertSendableUrl, createChannel } from './channel-commands.ts';
import { channelOfKind, deliveryLogFilter, foreignChannelField, updateChannelInput } from './channel-input.ts';
import {
  type ChannelRow,
  type ChannelTarget,
  channelDeliveryStats,
  confirmEmailChannel,
  deleteChannel,
  findChannel,
  listChannels,
  openChannelHeaders,
  rotateChannelSecret,
  subscriptionsOf,
  unsubscribeEmailChannel,
  updateChannel,
} from './channel-store.ts';
import { deliverySettings } from './delivery-sending.ts';
import { type DeliveryRow, listChannelDeliveries } from './delivery-store.ts';
import { hashConfirmationToken } from './mailer.ts';
import { assertTelegramChatReachable, requireTelegramBot } from './telegram-api.ts';
import { connectTelegramButtons } from './telegram-interactions.ts';
import { channelOfUnsubscribeToken } from './unsubscribe-links.ts';
import { sendTestDeliveries } from './test-sends.ts';

@ObjectType({ description: 'How a channel is reached. For a webhook: `url`, `headers`, `secret` (shown only on creation and rotation) and the account `events` it receives; for Telegram: `chatId`; for Slack: `channelId` and `channelName`; for e-mail: `address` and `confirmed`' })
export class ChannelConfig {
  @Field(() => String, { nullable: true, description: 'Webhook: the address every delivery is POSTed to' }) url!: string | null;
  @Field(() => JsonScalar, { description: 'Header name → value, sent verbatim; the service’s own headers win on a clash' }) headers!: Record<string, string>;
  @Field(() => String, { nullable: true, description: '`whsec_…`; present only in the responses that create the channel or rotate its secret' })
  secret!: string | null;
  @Field(() => [String], { description: 'Webhook: the account event names it receives; empty when none' }) events!: string[];
  @Field(() => String, { nullable: true, description: 'Telegram: the chat the bot posts to' }) chatId!: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: the id of the channel posted to' }) channelId!: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: that channel’s name' }) channelName!: string | null;
  @Field(() => String, { nullable: true, description: 'E-mail: the address' }) address!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'E-mail: whether the address was confirmed with the link mailed to it; nothing else is sent before' })
  confirmed!: boolean | null;
}

@ObjectType()
export class DeliveryCounts {
  @Field(() => Int) total!: number;
  @Field(() => Int) failed!: number;
}

@ObjectType()
export class ChannelStats {
  @Field(() => Int, { description: 'Alert rules sending to this channel' }) alerts!: number;
  @Field(() => Int, { description: 'Of those, the enabled ones' }) activeAlerts!: number;
  @Field(() => Date, { nullable: true, description: 'The newest delivery; null before the first' }) lastDeliveryAt!: Date | null;
  @Field(() => DeliveryCounts, { description: 'Deliveries of the last 7 days, and how many of them failed' }) last7d!: DeliveryCounts;
}

@ObjectType({ description: 'Where alerts and account events are delivered (spec 2.8)' })
export class Channel {
  @Field(() => ID, { description: 'Format `dest_...`' }) id!: string;
  @Field(() => String, { description: '`webhook`, `slack`, `telegram` or `email`' }) kind!: string;
  @Field(() => String) label!: string;
  @Field(() => ChannelConfig) config!: ChannelConfig;
  @Field(() => ChannelStats) stats!: ChannelStats;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType()
export class DeliveryAlert {
  @Field(() => ID, { nullable: true }) id!: string | null;
  @Field(() => String) name!: string;
}

@ObjectType({ description: 'The mention a delivery carried, in short' })
export class DeliveryMentionSummary {
  @Field(() => ID) id!: string;
  @Field(() => String) platform!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { description: 'The start of the post' }) text!: string;
}

@ObjectType()
export class DeliveryAttemptRecord {
  @Field(() => Date) at!: Date;
  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; null for a time-out, a network error or a refused address' }) status!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType({ description: 'One entry of a channel’s delivery log (spec 2.10)' })
export class Delivery {
  @Field(() => ID, { description: '`dlv_…`, the envelope `id` every attempt resends' }) id!: string;
  @Field(() => String, { description: '`mention`, `digest` or `event` (a test send is the event `test`)' }) kind!: string;
  @Field(() => String, { description: '`pending`, `delivered` or `failed`' }) status!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => String, { nullable: true, description: 'The last attempt’s error' }) error!: string | null;
  @Field(() => Date, { nullable: true }) sentAt!: Date | null;
  @Field(() => DeliveryAlert, { nullable: true }) alert!: DeliveryAlert | null;
  @Field(() => DeliveryMentionSummary, { nullable: true }) mention!: DeliveryMentionSummary | null;
  @Field(() => String, { nullable: true, description: 'For `kind: event`: the account event’s name, or `test`' }) event!: string | null;
  @Field(() => [DeliveryAttemptRecord], { description: 'Every attempt, oldest first' }) attemptLog!: DeliveryAttemptRecord[];
  @Field(() => Date) createdAt!: Date;
}

@ObjectType()
export class DeliveryPage {
  @Field(() => [Delivery]) nodes!: Delivery[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

@ObjectType()
export class TestOutcomeRecord {
  @Field(() => ID) channelId!: string;
  @Field(() => Boolean) ok!: boolean;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType({ description: 'How each channel took a test send' })
export class TestSendResult {
  @Field(() => [TestOutcomeRecord]) outcomes!: TestOutcomeRecord[];
}

@InputType()
export class CreateChannelInput {
  @Field(() => String, { description: '`webhook` (with `url`), `slack` (with `channelId`), `telegram` (with `chatId`) or `email` (with `address`); a kind this install has no settings for answers its `*_not_configured` error' }) kind!: string;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true, description: 'Default: the URL’s host' }) label?: string | null;
  @Field(() => JsonScalar, { nullable: true }) headers?: unknown;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Telegram: the chat id (or a public channel’s @username) the bot posts to' }) chatId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: the id of the channel to post to (the workspace must have installed the Slack app)' }) channelId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: that channel’s name, for people to read' }) channelName?: string | null;
  @Field(() => String, { nullable: true, description: 'E-mail: the address; a confirmation link is mailed to it first' }) address?: string | null;
}

@InputType()
export class UpdateChannelInput {
  @Field(() => String, { nullable: true, description: 'Webhook' }) url?: string | null;
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => JsonScalar, { nullable: true, description: 'Webhook' }) headers?: unknown;
  @Field(() => [String], { nullable: true, description: 'Webhook: replaces the whole set' }) events?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Telegram: the chat the bot posts to from now on' }) chatId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: the id of the channel posted to from now on' }) channelId?: string | null;
  @Field(() => String, { nullable: true, description: 'Slack: that channel’s name; default its id when `channelId` changes' }) channelName?: string | null;
}

/**
 * Where a Telegram or Slack channel posts after a change; undefined when it
 * stays. A Slack channel given without a name is named by its id, as on creation.
 */
function changedTarget(before: ChannelRow, changes: { chatId?: string; channelId?: string; channelName?: string }): ChannelTarget | undefined {
  if (changes.chatId !== undefined) return { ...before.target, chatId: changes.chatId };
  if (changes.channelId === undefined && changes.channelName === undefined) return undefined;
  const channelId = changes.channelId ?? before.target.channelId;
  const channelName = changes.channelName ?? (changes.channelId !== undefined ? changes.channelId : before.target.channelName);
  return { ...before.target, channelId, channelName };
}

/** GraphQL leaves an unset field out and REST may send it as null; both mean "no change" here. */
const present = (input: object) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

const deliveryCursorKey = (row: DeliveryRow) => [row.createdAt.toISOString(), row.id];
const parseDeliveryCursor = ([at, id]: string[]) => {
  const createdAt = cursorTime(at, 3);
  return id?.startsWith('dlv_') && createdAt ? { createdAt: new Date(createdAt), id } : undefined;
};

/** The log shows the spec's three kinds (2.10): a test send is an event, named `test` as in its envelope (6.1). */
export function toDelivery(row: DeliveryRow): Delivery {
  const kind = row.kind === 'test' ? 'event' : row.kind;
  return {
    id: row.id,
    kind,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    sentAt: row.sentAt,
    alert: row.alertName !== null ? { id: row.alertId, name: row.alertName } : null,
    mention: row.mentionId && row.mentionSummary ? { id: row.mentionId, ...row.mentionSummary } : null,
    event: kind === 'event' ? row.event : null,
    attemptLog: row.attemptLog.map((attempt) => ({ ...attempt, at: new Date(attempt.at) })),
    createdAt: row.createdAt,
  };
}

/** Channels as the API shows them, with their stats; a secret only when the row was just given it. */
export async function toChannels(ctx: SubgraphContext, rows: readonly (ChannelRow & { secret?: string | null })[]): Promise<Channel[]> {
  const ids = rows.map((row) => row.id);
  const rules = new Map((await countChannelRules(ctx.sql, ids)).map((count) => [count.channelId, count]));
  const deliveries = new Map((await channelDeliveryStats(ctx.sql, ids, ctx.clock.now())).map((stats) => [stats.channelId, stats]));
  return rows.map((row) => {
    const sent = deliveries.get(row.id);
    return {
      id: row.id,
      kind: row.kind,
      label: row.label,
      config: { url: row.url, headers: openChannelHeaders(ctx.secrets, row), secret: row.secret ?? null, events: row.events.map((subscription) => subscription.name), chatId: row.target.chatId ?? null, channelId: row.target.channelId ?? null, channelName: row.target.channelName ?? null, address: row.target.address ?? null, confirmed: row.kind === 'email' ? row.target.confirmed === true : null },
      stats: {
        alerts: rules.get(row.id)?.alerts ?? 0,
        activeAlerts: rules.get(row.id)?.activeAlerts ?? 0,
        lastDeliveryAt: sent?.lastDeliveryAt ?? null,
        last7d: { total: sent?.total7d ?? 0, failed: sent?.failed7d ?? 0 },
      },
      createdAt: row.createdAt,
    };
  });
}

async function ownChannel(ctx: SubgraphContext, id: string): Promise<ChannelRow> {
  const row = await findChannel(ctx.sql, requireAuth(ctx).workspaceId, id);
  if (!row) throw notFound('Channel');
  return row;
}

@ObjectType()
export class EmailConfirmation {
  @Field(() => Boolean) confirmed!: boolean;
  @Field(() => ID) channelId!: string;
  @Field(() => String) address!: string;
}

@ObjectType()
export class EmailUnsubscription {
  @Field(() => Boolean) unsubscribed!: boolean;
  @Field(() => ID) channelId!: string;
  @Field(() => String) address!: string;
}

@Resolver(() => Channel)
export class ChannelResolver {
  @Mutation(() => EmailUnsubscription, {
    description: "Stops an e-mail channel's mails with the token of the unsubscribe link they carry. Needs no API key (the signed token is the credential); the link keeps working, and again changes nothing",
  })
  async unsubscribeEmailChannel(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<EmailUnsubscription> {
    const channelId = await channelOfUnsubscribeToken(ctx.sql, ctx.secrets, token);
    const row = channelId ? await unsubscribeEmailChannel(ctx.sql, channelId) : undefined;
    if (!row) throw domainError('invalid_token', 'This unsubscribe link is not valid');
    return { unsubscribed: true, channelId: row.id, address: row.target.address ?? '' };
  }

  @Mutation(() => EmailConfirmation, { description: 'Confirms an e-mail channel with the token of the link mailed to it. Needs no API key (the token is the credential); a token works once' })
  async confirmEmailChannel(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<EmailConfirmation> {
    const row = await confirmEmailChannel(ctx.sql, hashConfirmationToken(token));
    if (!row) throw domainError('invalid_token', 'This confirmation link is unknown or was already used');
    return { confirmed: true, channelId: row.id, address: row.target.address ?? '' };
  }

  @Query(() => [Channel], { description: 'The workspace’s channels, oldest first' })
  async channels(@Ctx() ctx: SubgraphContext): Promise<Channel[]> {
    return toChannels(ctx, await listChannels(ctx.sql, requireAuth(ctx).workspaceId));
  }

  @Query(() => Channel)
  async channel(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Channel> {
    return (await toChannels(ctx, [await ownChannel(ctx, id)]))[0];
  }

  @Query(() => DeliveryPage, { description: 'A channel’s delivery log, newest first; pass `nextCursor` as `after` for the next page (with the same filters)' })
  async channelDeliveries(
    @Arg('id', () => ID) id: string,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100, default 50' }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('status', () => String, { nullable: true, description: 'Only deliveries in this state: `pending`, `delivered` or `failed`' }) status: string | null,
    @Arg('kind', () => String, { nullable: true, description: 'Only deliveries of this kind: `mention`, `digest` or `event` (test sends included)' }) kind: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<DeliveryPage> {
    const limit = pageSize(first);
    const only = parseInput(deliveryLogFilter, { status: status ?? undefined, kind: kind ?? undefined });
    const channel = await ownChannel(ctx, id);
    const rows = await listChannelDeliveries(
      ctx.sql,
      channel.id,
      { after: after ? decodeCursor(after, parseDeliveryCursor) : null, limit: limit + 1 },
      { status: only.status, kinds: only.kind && (only.kind === 'event' ? ['event', 'test'] : [only.kind]) },
    );
    const page = pageOf(rows, limit, deliveryCursorKey);
    return { nodes: page.nodes.map(toDelivery), nextCursor: page.nextCursor };
  }

  @Mutation(() => Channel, { description: 'Creates a channel; a webhook’s secret is shown in this response only' })
  async createChannel(@Arg('input', () => CreateChannelInput) input: CreateChannelInput, @Ctx() ctx: SubgraphContext): Promise<Channel> {
    const row = await createChannel(ctx.sql, ctx.secrets, requireAuth(ctx).workspaceId, present(input), ctx.env, ctx.clock.now());
    if (row.kind === 'telegram') await connectTelegramButtons(ctx);
    return (await toChannels(ctx, [row]))[0];
  }

  @Mutation(() => Channel, {
    description: 'Changes a channel: its label, a webhook’s URL, headers and `events` (the whole set), a Telegram channel’s chat, a Slack channel’s channel. The secret is not shown again',
  })
  async updateChannel(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateChannelInput) input: UpdateChannelInput, @Ctx() ctx: SubgraphContext): Promise<Channel> {
    const valid = parseInput(updateChannelInput, present(input));
    const before = await ownChannel(ctx, id);
    const foreign = foreignChannelField(valid, before.kind);
    if (foreign) throw domainError('validation_error', `${foreign}: is not taken by ${channelOfKind(before.kind)}`, { field: foreign });
    if (valid.url !== undefined) await assertSendableUrl(valid.url, ctx.env);
    if (valid.chatId !== undefined) await assertTelegramChatReachable(requireTelegramBot(ctx.env), valid.chatId);
    const row = await updateChannel(ctx.sql, ctx.secrets, before.workspaceId, before.id, {
      label: valid.label,
      url: valid.url,
      headers: valid.headers,
      events: valid.events && subscriptionsOf(valid.events, before.events, ctx.clock.now()),
      target: changedTarget(before, valid),
    });
    if (!row) throw notFound('Channel');
    if (valid.chatId !== undefined) await connectTelegramButtons(ctx);
    return (await toChannels(ctx, [row]))[0];
  }

  @Mutation(() => Boolean, { description: 'Deletes a channel; it leaves every rule' })
  async deleteChannel(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    if (!(await deleteChannel(ctx.sql, requireAuth(ctx).workspaceId, id))) throw notFound('Channel');
    return true;
  }

  @Mutation(() => Channel, { description: 'A new secret, shown in this response only; the old one stops verifying at once' })
  async rotateChannelSecret(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Channel> {
    const before = await ownChannel(ctx, id);
    if (before.kind !== 'webhook') throw domainError('validation_error', 'Only webhook channels have a secret', { field: 'id' });
    const row = await rotateChannelSecret(ctx.sql, ctx.secrets, before.workspaceId, before.id);
    if (!row) throw notFound('Channel');
    return (await toChannels(ctx, [row]))[0];
  }

  @Mutation(() => TestSendResult, { description: 'Sends event `test` with `data.message` to the channel now and says how it went' })
  async testChannel(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<TestSendResult> {
    const channel = await ownChannel(ctx, id);
    const outcomes = await sendTestDeliveries(ctx.sql, [channel], null, deliverySettings(ctx.env, ctx.secrets), () => ctx.clock.now());
    return { outcomes };
  }
}
