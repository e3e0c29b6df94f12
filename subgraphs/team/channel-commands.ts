import { assertPublicHttpUrl, PrivateAddressError } from '../../runtime/public-address.ts';
import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { parseInput } from '../validate-input.ts';
import { createChannelInput } from './channel-input.ts';
import { type ChannelRow, insertChannel } from './channel-store.ts';

/** A URL the service may send to: http(s) and, unless EARSHOT_ALLOW_PRIVATE_URLS=1, not private or loopback. */
export async function assertSendableUrl(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await assertPublicHttpUrl(url, { env });
  } catch (error) {
    const reason = error instanceof PrivateAddressError ? 'must not lead to a private or loopback address' : 'the host does not resolve';
    throw domainError('validation_error', `url: ${reason}`, { field: 'url' }, error);
  }
}

/** Creates a channel from a POST /v1/channels body; kinds not connected yet answer their `*_not_configured` code. */
export async function createChannel(sql: Queryable, workspaceId: string, rawInput: unknown, env: NodeJS.ProcessEnv, now: Date): Promise<ChannelRow> {
  const valid = parseInput(createChannelInput, rawInput);
  if (valid.kind !== 'webhook') throw domainError(`${valid.kind}_not_configured`, `${valid.kind} channels are not configured on this server`);
  await assertSendableUrl(valid.url!, env);
  return insertChannel(sql, {
    workspaceId,
    kind: valid.kind,
    label: valid.label ?? new URL(valid.url!).host,
    url: valid.url!,
    headers: valid.headers ?? {},
    events: valid.events ?? [],
    now,
  });
}
