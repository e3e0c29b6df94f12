-- mentions subgraph: alert rules (spec 2.9, 6.2, 6.3) and the channels each sends to.
create table alert_rules (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  mode          text not null check (mode in ('instant', 'daily', 'weekly')),
  event         text not null,
  -- sentiments, intents, minRelevance, languages, automated, linkHosts, keywordIds, platforms, mutedAuthors
  filter        jsonb not null default '{}',
  schedule_hour     smallint,
  schedule_weekday  smallint,
  enabled       boolean not null default true,
  -- digests: the end of the period the last run covered; the next run starts there
  last_run_at   timestamptz,
  created_at    timestamptz not null default now()
);
create index alert_rules_by_workspace on alert_rules (workspace_id, id);

create table alert_rule_channels (
  rule_id       text not null references alert_rules (id) on delete cascade,
  workspace_id  text not null,
  channel_id    text not null,
  position      integer not null,
  primary key (rule_id, channel_id),
  -- another workspace's channel cannot be named; deleting a channel leaves every rule
  foreign key (workspace_id, channel_id) references channels (workspace_id, id) on delete cascade
);
create index alert_rule_channels_by_channel on alert_rule_channels (channel_id);
