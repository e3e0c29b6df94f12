import type { Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { findKeywordsByIdsAnyWorkspace } from '../keywords/index.ts';
import { type AlertRuleRow, digestSpanStart, findDigestMentions, listDueDigestRules, lockAlertRule, type MentionRow, mentionRecord, nextDigestRun, recordDigestRun } from '../mentions/index.ts';
import { envelopeBody } from './delivery-envelope.ts';
import { insertDeliveries } from './delivery-store.ts';

/** Mentions listed per section; the counts cover all of them. */
export const digestListLimit = 100;
/**
 * A digest no channel took is retried on later ticks for this long (spec
 * 3.4, 8); an hourly one only until the next takes over.
 */
const retryWindowMs = (mode: AlertRuleRow['mode']) => (mode === 'hourly' ? 1 : 6) * 3_600_000;

type MentionRecord = ReturnType<typeof mentionRecord>;

/**
 * Buying intent, a question or an unhappy post: what someone should look at
 * first (spec 6.3). A complaint is unhappy whatever its sentiment: the
 * classifier reads 'it lost my data, how do I get it back?' as neutral.
 */
const attentionIntents: ReadonlySet<string> = new Set(['buy_intent', 'question', 'complaint']);
const needsAttention = (mention: MentionRecord) =>
  mention.classification !== null &&
  (mention.classification.intents.some((intent) => attentionIntents.has(intent)) || mention.classification.sentiment === 'negative');

const countBy = <Key extends string>(items: readonly MentionRecord[], keyOf: (mention: MentionRecord) => Key) => {
  const counts = new Map<Key, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
};

/**
 * The `data` of a digest delivery: the period, counts (all, each section,
 * per platform, per keyword), and the two sections, each mention in
 * exactly one, highest priority first, at most `digestListLimit` each
 * (`counts` says how many there were).
 */
export function digestData(rule: Pick<AlertRuleRow, 'mode'>, period: { from: Date; to: Date }, mentions: readonly MentionRow[], terms: ReadonlyMap<string, string>) {
  const records = mentions.map((mention) => mentionRecord(mention, terms.get(mention.keywordId) ?? ''));
  const attention = records.filter(needsAttention);
  const rest = records.filter((mention) => !needsAttention(mention));
  return {
    mode: rule.mode,
    period: { from: period.from.toISOString(), to: period.to.toISOString() },
    counts: {
      total: records.length,
      needsAttention: attention.length,
      rest: rest.length,
      byPlatform: countBy(records, (m) => m.post.platform).map(([platform, count]) => ({ platform, count })),
      byKeyword: countBy(records, (m) => m.keyword.id).map(([id, count]) => ({ keyword: { id, term: terms.get(id) ?? '' }, count })),
    },
    needsAttention: attention.slice(0, digestListLimit),
    rest: rest.slice(0, digestListLimit),
  };
}

export interface DigestRun {
  alertId: string;
  from: Date;
  to: Date;
  mentions: number;
  deliveryIds: string[];
}

/**
 * Runs a digest rule now: the mentions scored since its last run (a first
 * run: one period back), one delivery per channel, and the run recorded so
 * the next one starts here, in one transaction holding the rule (two
 * workers never send one run twice). `onlyIfDue` is the scheduler's: a rule another worker just ran is left alone.
 */
export async function runDigest(sql: Sql, workspaceId: string, ruleId: string, now: Date, onlyIfDue: boolean): Promise<DigestRun | undefined> {
  return sql.begin(async (tx) => {
    const rule = await lockAlertRule(tx, workspaceId, ruleId, !onlyIfDue);
    if (!rule || rule.mode === 'instant' || (onlyIfDue && nextDigestRun(rule) > now)) return undefined;
    const period = { from: digestSpanStart(rule, now), to: now };
    // A run that waited here behind one started after it has nothing left to send: going back in time, it would
    // end before it began and set the last run back, so the next run sent that span's mentions again.
    if (period.to <= period.from) return { alertId: rule.id, from: period.from, to: period.from, mentions: 0, deliveryIds: [] };
    const mentions = await findDigestMentions(tx, workspaceId, rule.filter, period);
    const terms = new Map((await findKeywordsByIdsAnyWorkspace(tx, [...new Set(mentions.map((m) => m.keywordId))])).map((k) => [k.id, k.term]));
    const data = digestData(rule, period, mentions, terms);
    const deliveries = rule.channelIds.map((channelId) => {
      const id = newId('dlv');
      return {
        id,
        workspaceId,
        channelId,
        kind: 'digest' as const,
        event: rule.event,
        alertId: rule.id,
        alertName: rule.name,
        digestPeriod: now,
        giveUpAt: new Date(now.getTime() + retryWindowMs(rule.mode)),
        body: envelopeBody({ id, event: rule.event, createdAt: now, alert: { id: rule.id, name: rule.name }, data }),
      };
    });
    const deliveryIds = await insertDeliveries(tx, deliveries, now);
    await recordDigestRun(tx, rule.id, now);
    return { alertId: rule.id, from: period.from, to: now, mentions: mentions.length, deliveryIds };
  });
}

/** The scheduler's tick: every digest rule whose hour has come runs once. */
export async function runDueDigests(sql: Sql, now: Date): Promise<number> {
  let runs = 0;
  for (const rule of await listDueDigestRules(sql, now)) {
    if (await runDigest(sql, rule.workspaceId, rule.id, now, true)) runs++;
  }
  return runs;
}
