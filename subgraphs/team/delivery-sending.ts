import { readConfig } from '../../runtime/config.ts';
import { findMentionsByIds, markMentionDelivered } from '../mentions/index.ts';
import type { Queryable } from '../../runtime/database.ts';
import { type AttemptResult, type ClaimedDelivery, type DeliveryRow, recordDeliveryAttempt } from './delivery-store.ts';
import { postWebhook, type WebhookOutcome } from './webhook-sender.ts';
import { signatureHeaders } from './webhook-signature.ts';

/** Attempts of an instant or account-event delivery in all (spec 3.4, 8). */
export const maxDeliveryAttempts = 5;

export interface DeliverySettings {
  retryDelaySeconds: number;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

export function deliverySettings(env: NodeJS.ProcessEnv): DeliverySettings {
  const config = readConfig(env);
  return { retryDelaySeconds: config.retryDelaySeconds, timeoutMs: config.webhookTimeoutMs, env };
}

/** Headers the service sets itself; a channel header of the same name (any case) gives way to them. */
function requestHeaders(channelHeaders: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const taken = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const kept = Object.entries(channelHeaders).filter(([name]) => !taken.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...own };
}

/** One webhook POST of a delivery's stored body, signed now with the channel's current secret. */
export function sendWebhookDelivery(
  delivery: Pick<DeliveryRow, 'id' | 'body'>,
  channel: { url: string | null; headers: Record<string, string>; secret: string | null },
  settings: DeliverySettings,
  at: Date,
): Promise<WebhookOutcome> {
  if (!channel.url || !channel.secret) {
    return Promise.resolve({ ok: false, status: null, error: 'the channel has no URL to send to', retryable: false });
  }
  const own = {
    'content-type': 'application/json',
    'user-agent': 'Earshot-Webhooks/0.0.1',
    ...signatureHeaders(channel.secret, delivery.id, delivery.body, at),
  };
  return postWebhook({ url: channel.url, headers: requestHeaders(channel.headers, own), body: delivery.body, timeoutMs: settings.timeoutMs, env: settings.env });
}

/**
 * What an attempt's outcome makes of a delivery (spec 3.4): 2xx delivers;
 * a transient failure is retried `retryDelaySeconds` later (or after the
 * endpoint's `Retry-After`) while attempts (instant, account events) or
 * the digest window last; anything else fails it now.
 */
export function attemptResult(delivery: Pick<DeliveryRow, 'kind' | 'attempts' | 'giveUpAt'>, outcome: WebhookOutcome, at: Date, retryDelaySeconds: number, maxAttempts = maxDeliveryAttempts): AttemptResult {
  const attempt = { at: at.toISOString(), status: outcome.status, error: outcome.ok ? null : outcome.error };
  if (outcome.ok) return { status: 'delivered', attempt };
  if (!outcome.retryable) return { status: 'failed', attempt };
  const retryAt = new Date(at.getTime() + 1000 * (outcome.retryAfterSeconds ?? retryDelaySeconds));
  const attemptsLeft = delivery.giveUpAt ? retryAt < delivery.giveUpAt : delivery.attempts + 1 < maxAttempts;
  return attemptsLeft ? { status: 'pending', attempt, retryAt } : { status: 'failed', attempt };
}

/**
 * Why a mention alert is not retried after all: its mention was closed
 * (done, ignored) or deleted since. A first attempt follows the scoring
 * that found the mention open by moments, so only retries ask.
 */
async function closedMention(sql: Queryable, delivery: ClaimedDelivery): Promise<string | null> {
  if (delivery.kind !== 'mention' || !delivery.mentionId || delivery.attempts === 0) return null;
  const [mention] = await findMentionsByIds(sql, [delivery.mentionId]);
  if (!mention) return 'the mention was deleted before it could be sent';
  return mention.status === 'open' ? null : `the mention was marked ${mention.status} before it could be sent`;
}

/** Sends a claimed delivery once and records the attempt; a mention closed meanwhile is never sent (spec 3.3). */
export async function sendClaimedDelivery(sql: Queryable, delivery: ClaimedDelivery, settings: DeliverySettings, now: () => Date): Promise<DeliveryRow | undefined> {
  const closed = await closedMention(sql, delivery);
  const outcome: WebhookOutcome = closed
    ? { ok: false, status: null, error: closed, retryable: false }
    : delivery.channelKind === 'webhook'
      ? await sendWebhookDelivery(delivery, { url: delivery.channelUrl, headers: delivery.channelHeaders, secret: delivery.channelSecret }, settings, now())
      : { ok: false, status: null, error: `${delivery.channelKind} channels are not connected yet`, retryable: false };
  const recorded = await recordDeliveryAttempt(sql, delivery.id, attemptResult(delivery, outcome, now(), settings.retryDelaySeconds));
  if (recorded?.status === 'delivered' && recorded.mentionId) await markMentionDelivered(sql, recorded.mentionId);
  return recorded;
}
