import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { type SealedColumn, sealedOwner } from '../../runtime/sealed-secrets.ts';
import type { SecretBox } from '../../runtime/secret-box.ts';
import { newChannelSecret } from './webhook-signature.ts';

export type ChannelKind = 'webhook' | 'slack' | 'telegram' | 'email';

export interface ChannelRow {
  id: string;
  workspaceId: string;
  kind: ChannelKind;
  label: string;
  url: string | null;
  /** A webhook's own headers as stored, sealed for this channel alone (null: none): `openChannelHeaders` reads them. */
  sealedHeaders: string | null;
  /** A webhook's signing secret as stored, sealed for this channel alone: `openChannelSecret` reads it. */
  sealedSecret: string | null;
  /** The account events the channel receives, in the order they were given, each with when the channel subscribed to it. */
  events: EventSubscription[];
  /** Where a Slack, Telegram or e-mail channel posts: `{ chatId }` for Telegram, `{ channelId, channelName }` for Slack; empty for a webhook. */
  target: ChannelTarget;
  createdAt: Date;
}

/** An account event a webhook channel receives; one recorded before `since` is not sent to it (spec 6.4). */
export type EventSubscription = { name: string; since: string };

// A type, not an interface, so it passes as JSON to the driver.
export type ChannelTarget = {
  chatId?: string;
  /** Slack: the channel's id (`C…`) and, for people to read, its name. */
  channelId?: string;
  channelName?: string;
  /** E-mail: the address, whether its owner confirmed it, and until then the hash of the confirmation link's token. */
  address?: string;
  confirmed?: boolean;
  confirmationTokenHash?: string;
  /** E-mail: the address's owner followed the unsubscribe link of one of its mails; nothing more is sent to it. */
  unsubscribed?: boolean;
};

export interface ChannelDeliveryStats {
  channelId: string;
  lastDeliveryAt: Date | null;
  total7d: number;
  failed7d: number;
}

/** A row just given a new secret, which the response that made it shows once. */
export type ChannelWithNewSecret = ChannelRow & { secret: string | null };

const channelColumns = (sql: Queryable) => sql`id, workspace_id, kind, label, url, headers as sealed_headers, secret as sealed_secret, events, target, created_at`;

/** A webhook's signing secret must be read back to sign, so it is sealed, not hashed (schema/045_sealed_secrets.sql). */
export const channelSecretColumn: SealedColumn = { table: 'channels', column: 'secret', key: 'id', constraint: 'channels_secret_sealed' };

/** The channel's signing secret in clear; `SealedSecretError` when its stored value was sealed for another row or with another key. */
export function openChannelSecret(secrets: SecretBox, channel: Pick<ChannelRow, 'id' | 'sealedSecret'>): string | null {
  return channel.sealedSecret === null ? null : secrets.open(channel.sealedSecret, sealedOwner(channelSecretColumn, channel.id));
}

/** A webhook's headers often carry the receiver's credentials and are sent and shown back, so they are sealed too (schema/048_sealed_channel_headers.sql). */
export const channelHeadersColumn: SealedColumn = { table: 'channels', column: 'headers', key: 'id', constraint: 'channels_headers_sealed' };

/** The channel's own headers in clear; `SealedSecretError` when their stored value was sealed for another row or with another key. */
export function openChannelHeaders(secrets: SecretBox, channel: Pick<ChannelRow, 'id' | 'sealedHeaders'>): Record<string, string> {
  return channel.sealedHeaders === null ? {} : JSON.parse(secrets.open(channel.sealedHeaders, sealedOwner(channelHeadersColumn, channel.id)));
}

function sealHeaders(secrets: SecretBox, channelId: string, headers: Record<string, string>): string | null {
  return Object.keys(headers).length === 0 ? null : secrets.seal(JSON.stringify(headers), sealedOwner(channelHeadersColumn, channelId));
}

/** A new signing secret for the channel: in clear for the response, sealed for its row. */
function newSealedSecret(secrets: SecretBox, channelId: string): { secret: string; sealed: string } {
  const secret = newChannelSecret();
  return { secret, sealed: secrets.seal(secret, sealedOwner(channelSecretColumn, channelId)) };
}

/** The subscriptions after a change, in the order given: names kept keep the time they were first subscribed, new ones start now. */
export function subscriptionsOf(names: readonly string[], before: readonly EventSubscription[], now: Date): EventSubscription[] {
  return names.map((name) => ({ name, since: before.find((subscription) => subscription.name === name)?.since ?? now.toISOString() }));
}

/** A new channel; a webhook gets its signing secret, returned in clear this once. */
export async function insertChannel(
  sql: Queryable,
  secrets: SecretBox,
  input: { workspaceId: string; kind: ChannelKind; label: string; url: string | null; headers: Record<string, string>; events: string[]; target?: ChannelTarget; now: Date },
): Promise<ChannelWithNewSecret> {
  const id = newId('dest');
  const secret = input.kind === 'webhook' ? newSealedSecret(secrets, id) : null;
  const [row] = await sql<ChannelRow[]>`
    /* insertChannel */
    insert into channels (id, workspace_id, kind, label, url, headers, secret, events, target, created_at)
    values (${id}, ${input.workspaceId}, ${input.kind}, ${input.label}, ${input.url},
            ${sealHeaders(secrets, id, input.headers)}, ${secret?.sealed ?? null},
            ${sql.json(subscriptionsOf(input.events, [], input.now))}, ${sql.json(input.target ?? {})}, ${input.now})
    returning ${channelColumns(sql)}`;
  return { ...row, secret: secret?.secret ?? null };
}

/** Confirms the e-mail channel whose link carried this token; the token works once. */
export async function confirmEmailChannel(sql: Queryable, tokenHash: string): Promise<ChannelRow | undefined> {
  const [row] = await sql<ChannelRow[]>`
    /* confirmEmailChannel */
    update channels set target = (target - 'confirmationTokenHash') || '{"confirmed": true}'::jsonb
    where kind = 'email' and target ->> 'confirmationTokenHash' = ${tokenHash}
    returning ${channelColumns(sql)}`;
  return row;
}

/** Stops an e-mail channel's mails for good at its address's request (an unsubscribe link); again changes nothing. */
export async function unsubscribeEmailChannel(sql: Queryable, id: string): Promise<ChannelRow | undefined> {
  const [row] = await sql<ChannelRow[]>`
    /* unsubscribeEmailChannel */
    update channels set target = (target - 'confirmationTokenHash') || '{"confirmed": false, "unsubscribed": true}'::jsonb
    where kind = 'email' and id = ${id}
    returning ${channelColumns(sql)}`;
  return row;
}

export async function findChannel(sql: Queryable, workspaceId: string, id: string): Promise<ChannelRow | undefined> {
  const [row] = await sql<ChannelRow[]>`
    /* findChannel */
    select ${channelColumns(sql)} from channels where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function findChannelsByIds(sql: Queryable, ids: readonly string[]): Promise<ChannelRow[]> {
  if (ids.length === 0) return [];
  return sql<ChannelRow[]>`
    /* findChannelsByIds */
    select ${channelColumns(sql)} from channels where id = any(${sql.array(ids as string[])})`;
}

/**
 * The workspaces with a Telegram channel posting to this chat, named by its
 * numeric id or, for a public channel, by its @username (any case, as
 * Telegram takes it).
 */
export async function workspacesOfTelegramChat(sql: Queryable, chat: { id: string; username: string | null }): Promise<string[]> {
  const rows = await sql<{ workspaceId: string }[]>`
    /* workspacesOfTelegramChat */
    select distinct workspace_id from channels
    where kind = 'telegram' and (target ->> 'chatId' = ${chat.id} or lower(target ->> 'chatId') = lower(${chat.username === null ? null : `@${chat.username}`}))`;
  return rows.map((row) => row.workspaceId);
}

/** Whether any workspace of the install has a Telegram channel. */
export async function anyTelegramChannel(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    /* anyTelegramChannel */
    select exists (select 1 from channels where kind = 'telegram') as found`;
  return row.found;
}

export async function listChannels(sql: Queryable, workspaceId: string): Promise<ChannelRow[]> {
  return sql<ChannelRow[]>`
    /* listChannels */
    select ${channelColumns(sql)} from channels where workspace_id = ${workspaceId} order by id`;
}

export async function updateChannel(
  sql: Queryable,
  secrets: SecretBox,
  workspaceId: string,
  id: string,
  changes: { label?: string; url?: string; headers?: Record<string, string>; events?: EventSubscription[]; target?: ChannelTarget },
): Promise<ChannelRow | undefined> {
  const values: Record<string, unknown> = {};
  if (changes.target !== undefined) values.target = sql.json(changes.target);
  if (changes.label !== undefined) values.label = changes.label;
  if (changes.url !== undefined) values.url = changes.url;
  if (changes.headers !== undefined) values.headers = sealHeaders(secrets, id, changes.headers);
  if (changes.events !== undefined) values.events = sql.json(changes.events);
  if (Object.keys(values).length === 0) return findChannel(sql, workspaceId, id);
  const [row] = await sql<ChannelRow[]>`
    /* updateChannel */
    update channels set ${sql(values)} where id = ${id} and workspace_id = ${workspaceId}
    returning ${channelColumns(sql)}`;
  return row;
}

/** A new secret, effective at once: the old one signs nothing more, pending retries included. */
export async function rotateChannelSecret(sql: Queryable, secrets: SecretBox, workspaceId: string, id: string): Promise<ChannelWithNewSecret | undefined> {
  const secret = newSealedSecret(secrets, id);
  const [row] = await sql<ChannelRow[]>`
    /* rotateChannelSecret */
    update channels set secret = ${secret.sealed} where id = ${id} and workspace_id = ${workspaceId} and kind = 'webhook'
    returning ${channelColumns(sql)}`;
  return row && { ...row, secret: secret.secret };
}

/** Deletes a channel; its rule memberships and delivery log go with it (foreign keys cascade). */
export async function deleteChannel(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deleteChannel */
    delete from channels where id = ${id} and workspace_id = ${workspaceId} returning id`;
  return rows.length > 0;
}

/** Each channel's newest sent delivery and its deliveries of the last 7 days (stats of spec 2.8). */
export async function channelDeliveryStats(sql: Queryable, channelIds: readonly string[], now: Date): Promise<ChannelDeliveryStats[]> {
  if (channelIds.length === 0) return [];
  return sql<ChannelDeliveryStats[]>`
    /* channelDeliveryStats */
    select c.id as channel_id,
           (select max(sent_at) from deliveries d where d.channel_id = c.id) as last_delivery_at,
           (select count(*)::int from deliveries d where d.channel_id = c.id and d.created_at > ${now}::timestamptz - interval '7 days') as total7d,
           (select count(*)::int from deliveries d
             where d.channel_id = c.id and d.status = 'failed' and d.created_at > ${now}::timestamptz - interval '7 days') as failed7d
    from unnest(${sql.array(channelIds as string[])}::text[]) as c(id)`;
}
