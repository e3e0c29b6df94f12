import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { findKeywordsByIdsAnyWorkspace } from '../keywords/index.ts';
import { filterMentionIdsByAlert, findMentionsByIds, listInstantAlertRules, mentionRecord } from '../mentions/index.ts';
import { envelopeBody } from './delivery-envelope.ts';
import { insertDeliveries, type NewDelivery } from './delivery-store.ts';

/** How much of the post the delivery log keeps. */
const summaryLength = 140;

/**
 * Enqueues the instant alerts of mentions just scored, in the scoring
 * transaction: one delivery per rule, channel and mention passing the
 * rule's filter, whose `data` is the mention exactly as
 * `GET /v1/mentions/{id}` shows it now. Enqueueing twice is harmless (one
 * row per channel, rule and mention), so a scoring job run twice delivers once.
 */
export async function enqueueMentionAlerts(sql: Queryable, mentionIds: readonly string[], now: Date): Promise<number> {
  const mentions = await findMentionsByIds(sql, mentionIds);
  if (mentions.length === 0) return 0;
  const rules = await listInstantAlertRules(sql, [...new Set(mentions.map((mention) => mention.workspaceId))]);
  if (rules.length === 0) return 0;
  const terms = new Map((await findKeywordsByIdsAnyWorkspace(sql, [...new Set(mentions.map((m) => m.keywordId))])).map((k) => [k.id, k.term]));
  const deliveries: NewDelivery[] = [];
  for (const rule of rules) {
    const own = mentions.filter((mention) => mention.workspaceId === rule.workspaceId).map((mention) => mention.id);
    const passing = new Set(await filterMentionIdsByAlert(sql, rule.workspaceId, own, rule.filter));
    for (const mention of mentions) {
      if (!passing.has(mention.id)) continue;
      const data = mentionRecord(mention, terms.get(mention.keywordId) ?? '');
      for (const channelId of rule.channelIds) {
        const id = newId('dlv');
        deliveries.push({
          id,
          workspaceId: rule.workspaceId,
          channelId,
          kind: 'mention',
          event: rule.event,
          alertId: rule.id,
          alertName: rule.name,
          mentionId: mention.id,
          mentionSummary: { platform: mention.platform, url: mention.url, text: mention.text.slice(0, summaryLength) },
          body: envelopeBody({ id, event: rule.event, createdAt: now, alert: { id: rule.id, name: rule.name }, data }),
        });
      }
    }
  }
  return (await insertDeliveries(sql, deliveries, now)).length;
}
