import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { findKeywordsByIdsAnyWorkspace } from '../keywords/index.ts';
import { filterMentionIdsByAlert, findMentionsByIds, listInstantAlertRules, type MentionRow, mentionRecord } from '../mentions/index.ts';
import { type EnvelopeAlert, envelopeBody } from './delivery-envelope.ts';
import { insertDeliveries, type NewDelivery } from './delivery-store.ts';
import { listSlackNotificationSettings } from './slack-connection-store.ts';

/** How much of the post the delivery log keeps. */
const summaryLength = 140;

type AlertFilter = Parameters<typeof filterMentionIdsByAlert>[3];

/**
 * Enqueues the instant alerts of mentions just scored, in the scoring
 * transaction: one delivery per rule, channel and mention passing the
 * rule's filter, and one per mention to the workspace's Slack notifications
 * (spec 4.6: relevant mentions at or above `minRelevance` from its `sources`),
 * whose `data` is the mention exactly as `GET /v1/mentions/{id}` shows it
 * now. Enqueueing twice is harmless (one row per destination, rule and
 * mention), so a scoring job run twice delivers once. The mentions are
 * read whole only when their workspaces have a rule or Slack notifications:
 * read first, they were about an eighth of a scoring transaction's
 * database time for workspaces with neither.
 */
export async function enqueueMentionAlerts(sql: Queryable, scored: readonly Pick<MentionRow, 'id' | 'workspaceId'>[], now: Date): Promise<number> {
  if (scored.length === 0) return 0;
  const workspaceIds = [...new Set(scored.map((mention) => mention.workspaceId))];
  const [rules, slackSettings] = await Promise.all([listInstantAlertRules(sql, workspaceIds), listSlackNotificationSettings(sql, workspaceIds)]);
  if (rules.length === 0 && slackSettings.length === 0) return 0;
  const mentions = await findMentionsByIds(sql, scored.map((mention) => mention.id));
  if (mentions.length === 0) return 0;
  const terms = new Map((await findKeywordsByIdsAnyWorkspace(sql, [...new Set(mentions.map((m) => m.keywordId))])).map((k) => [k.id, k.term]));
  const passing = async (workspaceId: string, filter: AlertFilter) =>
    new Set(await filterMentionIdsByAlert(sql, workspaceId, mentions.filter((mention) => mention.workspaceId === workspaceId).map((mention) => mention.id), filter));
  const deliveryOf = (mention: MentionRow, destination: Pick<NewDelivery, 'channelId' | 'slackNotifications'>, event: string, alert: EnvelopeAlert): NewDelivery => {
    const id = newId('dlv');
    return {
      id,
      workspaceId: mention.workspaceId,
      ...destination,
      kind: 'mention',
      event,
      alertId: alert?.id ?? null,
      alertName: alert?.name ?? null,
      mentionId: mention.id,
      mentionSummary: { platform: mention.platform, url: mention.url, text: mention.text.slice(0, summaryLength) },
      body: envelopeBody({ id, event, createdAt: now, alert, data: mentionRecord(mention, terms.get(mention.keywordId) ?? '') }),
    };
  };
  const deliveries: NewDelivery[] = [];
  for (const rule of rules) {
    const sent = await passing(rule.workspaceId, rule.filter);
    for (const mention of mentions.filter((candidate) => sent.has(candidate.id))) {
      for (const channelId of rule.channelIds) deliveries.push(deliveryOf(mention, { channelId }, rule.event, { id: rule.id, name: rule.name }));
    }
  }
  for (const settings of slackSettings) {
    const filter: AlertFilter = {
      ...(settings.minRelevance !== null ? { minRelevance: settings.minRelevance } : {}),
      ...(settings.sources.length ? { platforms: settings.sources as AlertFilter['platforms'] } : {}),
    };
    const sent = await passing(settings.workspaceId, filter);
    for (const mention of mentions.filter((candidate) => sent.has(candidate.id))) {
      deliveries.push(deliveryOf(mention, { slackNotifications: true }, 'mention.matched', null));
    }
  }
  return (await insertDeliveries(sql, deliveries, now)).length;
}
