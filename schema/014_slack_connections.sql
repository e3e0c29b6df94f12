-- team subgraph: a workspace's Slack connection (the Slack app installed through
-- OAuth, with its bot token) and where in Slack its notifications go (spec 4.6
-- `PUT /v1/slack/notifications`). One per workspace: installing again replaces
-- the token and keeps the notification settings.
create table slack_connections (
  workspace_id          text primary key references workspaces (id) on delete cascade,
  team_id               text not null,
  team_name             text not null,
  bot_token             text not null,
  bot_user_id           text not null,
  app_id                text not null,
  scopes                text[] not null,
  -- null until the notifications are first set
  channel_id            text,
  channel_name          text,
  min_relevance         integer check (min_relevance between 0 and 100),
  sources               text[] not null default '{}',
  installed_at          timestamptz not null,
  notifications_set_at  timestamptz
);
