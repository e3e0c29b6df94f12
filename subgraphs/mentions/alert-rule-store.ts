import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError } from '../domain-error.ts';
import type { SettledAlertRule } from './alert-rule-input.ts';
import { nextDigestRun } from './digest-schedule.ts';

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

export interface AlertRuleRow extends SettledAlertRule {
  id: string;
  workspaceId: string;
  lastRunAt: Date | null;
  createdAt: Date;
}

const ruleColumns = (sql: Queryable) => sql`
  r.id, r.workspace_id, r.name, r.mode, r.event, r.filter, r.schedule_hour, r.schedule_weekday, r.enabled, r.last_run_at, r.created_at,
  array(select rc.channel_id from alert_rule_channels rc where rc.rule_id = r.id order by rc.position) as channel_ids`;

/**
 * A rule naming a channel that is not the workspace's breaks the foreign key:
 * that is `unknown_channel` (404); an hourly rule with an e-mail channel
 * breaks the check named after its code (400); causes kept.
 */
export function translateAlertRuleWriteError(error: unknown): unknown {
  const failure = error as { code?: string; constraint_name?: string };
  if (failure.code === '23503') {
    return domainError('unknown_channel', 'channelIds: names a channel this workspace does not have', { field: 'channelIds' }, error);
  }
  if (failure.code === '23514' && failure.constraint_name === 'hourly_email_unsupported') {
    return domainError('hourly_email_unsupported', 'channelIds: an hourly digest cannot go to an e-mail channel; use daily or weekly for e-mail', { field: 'channelIds' }, error);
  }
  return error;
}

/**
 * Holds the channels a rule is about to name (key share, in id order)
 * before its old channel rows go: a channel's delete holds the channel and
 * then deletes every rule's row for it, so an update that cleared those
 * rows first and reached the channel after waited for the delete while the
 * delete waited for it (a deadlock). A channel deleted meanwhile is simply
 * not found, and the new rows then name an unknown channel.
 */
async function holdNamedChannels(sql: Queryable, workspaceId: string, channelIds: readonly string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await sql`
    /* holdAlertRuleChannels */
    select id from channels where workspace_id = ${workspaceId} and id = any(${sql.array(channelIds as string[])})
    order by id for key share`;
}

async function clearRuleChannels(sql: Queryable, ruleId: string): Promise<void> {
  await sql`/* clearAlertRuleChannels */ delete from alert_rule_channels where rule_id = ${ruleId}`;
}

/**
 * Writes a rule's channel list. Each row repeats the rule's mode and the
 * channel's kind, which foreign keys keep true, so the database refuses an
 * hourly digest to e-mail (a check on the rows) and a channel the workspace
 * does not have (no kind to find: the key breaks). The kind is read here,
 * in the statement, only to be checked by that key.
 */
async function insertRuleChannels(sql: Queryable, workspaceId: string, ruleId: string, mode: string, channelIds: readonly string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await sql`
    /* insertAlertRuleChannels */
    insert into alert_rule_channels (rule_id, workspace_id, channel_id, position, rule_mode, channel_kind)
    select ${ruleId}, ${workspaceId}, t.channel_id, t.position, ${mode},
           (select c.kind from channels c where c.id = t.channel_id and c.workspace_id = ${workspaceId})
    from unnest(${sql.array(channelIds as string[])}::text[]) with ordinality as t(channel_id, position)`;
}

/** `check` runs first in the write's transaction, before anything is locked or written, so what it holds is held first. */
type WriteCheck = (tx: Queryable) => Promise<void>;

export async function insertAlertRule(sql: Sql, workspaceId: string, rule: SettledAlertRule, now: Date, check: WriteCheck): Promise<AlertRuleRow> {
  try {
    return await sql.begin(async (tx) => {
      await check(tx);
      const id = newId('feed');
      await tx`
        /* insertAlertRule */
        insert into alert_rules (id, workspace_id, name, mode, event, filter, schedule_hour, schedule_weekday, enabled, last_run_at, created_at)
        values (${id}, ${workspaceId}, ${rule.name}, ${rule.mode}, ${rule.event}, ${tx.json(rule.filter as never)},
                ${rule.scheduleHour}, ${rule.scheduleWeekday}, ${rule.enabled}, null, ${now})`;
      await insertRuleChannels(tx, workspaceId, id, rule.mode, rule.channelIds);
      return (await findAlertRule(tx, workspaceId, id))!;
    });
  } catch (error) {
    throw translateAlertRuleWriteError(error);
  }
}

/**
 * Updates a rule to what `settle` makes of it as it stands once locked, so
 * updates sent at once apply one after the other, none writing back fields
 * another has just changed; undefined when the rule is gone.
 */
export async function updateAlertRule(
  sql: Sql,
  workspaceId: string,
  id: string,
  settle: (current: AlertRuleRow) => SettledAlertRule,
  channelsChanged: boolean,
  check: WriteCheck,
): Promise<AlertRuleRow | undefined> {
  try {
    return await sql.begin(async (tx) => {
      await check(tx);
      // The rule's row is locked first, so two updates of one rule queue up
      // rather than each clearing the channel rows the other is about to
      // write (a duplicate key) or taking the two tables' locks in opposite
      // orders (a deadlock).
      const current = await lockAlertRule(tx, workspaceId, id, true);
      if (!current) return undefined;
      const rule = settle(current);
      // The old channels go first: the rule's new mode is checked against the new list only.
      if (channelsChanged) {
        await holdNamedChannels(tx, workspaceId, rule.channelIds);
        await clearRuleChannels(tx, id);
      }
      await tx`
        /* updateAlertRule */
        update alert_rules set name = ${rule.name}, mode = ${rule.mode}, event = ${rule.event}, filter = ${tx.json(rule.filter as never)},
          schedule_hour = ${rule.scheduleHour}, schedule_weekday = ${rule.scheduleWeekday}, enabled = ${rule.enabled},
          last_run_at = case when ${rule.mode} = 'instant' then null when mode = 'instant' then now() else last_run_at end
        where id = ${id} and workspace_id = ${workspaceId}`;
      if (channelsChanged) await insertRuleChannels(tx, workspaceId, id, rule.mode, rule.channelIds);
      return findAlertRule(tx, workspaceId, id);
    });
  } catch (error) {
    throw translateAlertRuleWriteError(error);
  }
}

export async function findAlertRule(sql: Queryable, workspaceId: string, id: string): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    /* findAlertRule */
    select ${ruleColumns(sql)} from alert_rules r where r.id = ${id} and r.workspace_id = ${workspaceId}`;
  return row;
}

export async function listAlertRules(sql: Queryable, workspaceId: string): Promise<AlertRuleRow[]> {
  return sql<AlertRuleRow[]>`
    /* listAlertRules */
    select ${ruleColumns(sql)} from alert_rules r where r.workspace_id = ${workspaceId} order by r.id`;
}

export async function deleteAlertRule(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deleteAlertRule */
    delete from alert_rules where id = ${id} and workspace_id = ${workspaceId} returning id`;
  return rows.length > 0;
}

/** The enabled instant rules of these workspaces that send to at least one channel. */
export async function listInstantAlertRules(sql: Queryable, workspaceIds: readonly string[]): Promise<AlertRuleRow[]> {
  if (workspaceIds.length === 0) return [];
  return sql<AlertRuleRow[]>`
    /* listInstantAlertRules */
    select ${ruleColumns(sql)} from alert_rules r
    where r.workspace_id = any(${sql.array(workspaceIds as string[])}) and r.mode = 'instant' and r.enabled
      and exists (select 1 from alert_rule_channels rc where rc.rule_id = r.id)
    order by r.id`;
}

/**
 * A deleted keyword leaves every rule's `keywordIds`; a rule that named
 * only that keyword would otherwise widen to every keyword, so it is
 * disabled instead.
 */
export async function removeKeywordFromAlertRules(sql: Queryable, workspaceId: string, keywordId: string): Promise<void> {
  await sql`
    /* removeKeywordFromAlertRules */
    update alert_rules set
      filter = jsonb_set(filter, '{keywordIds}', coalesce(
        (select jsonb_agg(k) from jsonb_array_elements_text(filter -> 'keywordIds') as k where k <> ${keywordId}), '[]'::jsonb)),
      enabled = enabled and exists (select 1 from jsonb_array_elements_text(filter -> 'keywordIds') as k where k <> ${keywordId})
    where workspace_id = ${workspaceId} and filter -> 'keywordIds' ? ${keywordId}`;
}

/** Enabled digest rules with a channel whose next run is due, for the digest scheduler. */
export async function listDueDigestRules(sql: Queryable, now: Date): Promise<AlertRuleRow[]> {
  const rules = await sql<AlertRuleRow[]>`
    /* listDigestRules */
    select ${ruleColumns(sql)} from alert_rules r
    where r.mode in ('hourly', 'daily', 'weekly') and r.enabled
      and exists (select 1 from alert_rule_channels rc where rc.rule_id = r.id)
    order by r.id`;
  return rules.filter((rule) => nextDigestRun(rule) <= now);
}

/** Locks one rule for a digest run; undefined when it is gone or, unless `wait`, another run holds it. */
export async function lockAlertRule(sql: Queryable, workspaceId: string, id: string, wait: boolean): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    /* lockAlertRule */
    select ${ruleColumns(sql)} from alert_rules r
    where r.id = ${id} and r.workspace_id = ${workspaceId}
    for update of r ${wait ? sql`` : sql`skip locked`}`;
  return row;
}

/** The next run starts where this one ended. */
export async function recordDigestRun(sql: Queryable, id: string, periodEnd: Date): Promise<void> {
  await sql`/* recordDigestRun */ update alert_rules set last_run_at = ${periodEnd} where id = ${id}`;
}
