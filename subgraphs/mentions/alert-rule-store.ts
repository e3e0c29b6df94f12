import type { Queryable } from '../../runtime/database.ts';

/** How many rules send to each channel, and how many of those are enabled (a channel's `stats`, spec 2.8). */
export async function countChannelRules(sql: Queryable, channelIds: readonly string[]): Promise<{ channelId: string; alerts: number; activeAlerts: number }[]> {
  if (channelIds.length === 0) return [];
  return sql<{ channelId: string; alerts: number; activeAlerts: number }[]>`
    /* countChannelRules */
    select rc.channel_id, count(*)::int as alerts, count(*) filter (where r.enabled)::int as active_alerts
    from alert_rule_channels rc join alert_rules r on r.id = rc.rule_id
    where rc.channel_id = any(${sql.array(channelIds as string[])})
    group by rc.channel_id`;
}
