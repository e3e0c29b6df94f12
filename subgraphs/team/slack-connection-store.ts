import type { Queryable } from '../../runtime/database.ts';
import { type SealedColumn, sealedOwner } from '../../runtime/sealed-secrets.ts';
import type { SecretBox } from '../../runtime/secret-box.ts';
import type { SlackInstall } from './slack-api.ts';

export interface SlackNotificationSettings {
  channelId: string;
  channelName: string;
  minRelevance: number | null;
  sources: string[];
}

export interface SlackConnectionRow {
  workspaceId: string;
  teamId: string;
  teamName: string;
  /** The bot token as stored, sealed for this workspace alone: `openSlackBotToken` reads it. */
  sealedBotToken: string;
  channelId: string | null;
  channelName: string | null;
  minRelevance: number | null;
  sources: string[];
}

/** The bot token must be read back to post, so it is sealed, not hashed (schema/045_sealed_secrets.sql). */
export const slackBotTokenColumn: SealedColumn = { table: 'slack_connections', column: 'bot_token', key: 'workspace_id', constraint: 'slack_connections_bot_token_sealed' };

/** The bot token in clear; `SealedSecretError` when its stored value was sealed for another workspace or with another key. */
export const openSlackBotToken = (secrets: SecretBox, row: Pick<SlackConnectionRow, 'workspaceId' | 'sealedBotToken'>): string =>
  secrets.open(row.sealedBotToken, sealedOwner(slackBotTokenColumn, row.workspaceId));

/** Records an install of the Slack app; a new install of the same workspace replaces the token and keeps the notification settings. */
export async function saveSlackInstall(sql: Queryable, secrets: SecretBox, workspaceId: string, install: SlackInstall, now: Date): Promise<SlackConnectionRow> {
  const [row] = await sql<SlackConnectionRow[]>`
    /* saveSlackInstall */
    insert into slack_connections (workspace_id, team_id, team_name, bot_token, bot_user_id, app_id, scopes, installed_at)
    values (${workspaceId}, ${install.team.id}, ${install.team.name}, ${secrets.seal(install.botToken, sealedOwner(slackBotTokenColumn, workspaceId))}, ${install.botUserId}, ${install.appId}, ${install.scopes}, ${now})
    on conflict (workspace_id) do update set
      team_id = excluded.team_id, team_name = excluded.team_name, bot_token = excluded.bot_token,
      bot_user_id = excluded.bot_user_id, app_id = excluded.app_id, scopes = excluded.scopes, installed_at = excluded.installed_at
    returning workspace_id, team_id, team_name, bot_token as sealed_bot_token, channel_id, channel_name, min_relevance, sources`;
  return row;
}

export async function findSlackConnection(sql: Queryable, workspaceId: string): Promise<SlackConnectionRow | undefined> {
  const [row] = await sql<SlackConnectionRow[]>`
    /* findSlackConnection */
    select workspace_id, team_id, team_name, bot_token as sealed_bot_token, channel_id, channel_name, min_relevance, sources from slack_connections where workspace_id = ${workspaceId}`;
  return row;
}

/** Sets where the workspace's Slack notifications go; undefined when the workspace has no Slack connection. */
export async function saveSlackNotifications(
  sql: Queryable,
  workspaceId: string,
  settings: SlackNotificationSettings,
  now: Date,
): Promise<SlackConnectionRow | undefined> {
  const [row] = await sql<SlackConnectionRow[]>`
    /* saveSlackNotifications */
    update slack_connections set
      channel_id = ${settings.channelId}, channel_name = ${settings.channelName},
      min_relevance = ${settings.minRelevance}, sources = ${settings.sources}, notifications_set_at = ${now}
    where workspace_id = ${workspaceId}
    returning workspace_id, team_id, team_name, bot_token as sealed_bot_token, channel_id, channel_name, min_relevance, sources`;
  return row;
}

/** The workspaces connected to a Slack team: several Earshot workspaces may install the app into the same Slack. */
export async function workspacesOfSlackTeam(sql: Queryable, teamId: string): Promise<string[]> {
  const rows = await sql<{ workspaceId: string }[]>`
    /* workspacesOfSlackTeam */
    select workspace_id from slack_connections where team_id = ${teamId}`;
  return rows.map((row) => row.workspaceId);
}

/** Where these workspaces' Slack notifications go, for the workspaces that have set them. */
export async function listSlackNotificationSettings(sql: Queryable, workspaceIds: readonly string[]): Promise<({ workspaceId: string } & SlackNotificationSettings)[]> {
  if (workspaceIds.length === 0) return [];
  return sql<({ workspaceId: string } & SlackNotificationSettings)[]>`
    /* listSlackNotificationSettings */
    select workspace_id, channel_id, channel_name, min_relevance, sources from slack_connections
    where workspace_id = any(${sql.array(workspaceIds as string[])}) and channel_id is not null`;
}
