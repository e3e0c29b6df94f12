-- team subgraph: channels (where alerts and account events go) and the
-- deliveries to them, which are both the outbox the dispatcher sends from and
-- the delivery log users read (spec 2.8, 2.10, 3.4, 6).
create table channels (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  kind          text not null check (kind in ('webhook', 'slack', 'telegram', 'email')),
  label         text not null,
  url           text,
  -- sent verbatim on every request; the service's own headers win on a clash
  headers       jsonb not null default '{}',
  -- whsec_ + base64 of 32 random bytes; rotation replaces it at once
  secret        text,
  -- account event name -> when the channel subscribed to it: a channel
  -- subscribed after an event was recorded does not receive it (6.4)
  events        jsonb not null default '{}',
  created_at    timestamptz not null default now(),
  -- the target of alert_rule_channels' foreign key: a rule names only its own workspace's channels
  unique (workspace_id, id)
);
create index channels_by_workspace on channels (workspace_id, id);

create table deliveries (
  id                text primary key,
  workspace_id      text not null references workspaces (id) on delete cascade,
  channel_id        text not null references channels (id) on delete cascade,
  kind              text not null check (kind in ('mention', 'digest', 'event', 'test')),
  alert_id          text,
  alert_name        text,
  mention_id        text,
  -- a short summary of the mention for the log (platform, url, the start of the text)
  mention_summary   jsonb,
  account_event_id  text,
  -- the digest period's start, which makes a rule's run idempotent
  digest_period     timestamptz,
  event             text not null,
  status            text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts          integer not null default 0,
  -- every attempt's outcome, oldest first: { at, status, error }
  attempt_log       jsonb not null default '[]',
  error             text,
  -- the exact JSON text sent; every retry resends these bytes under the same id
  body              text not null,
  -- when the next attempt is due; while an attempt runs, the end of its lease
  next_attempt_at   timestamptz not null default now(),
  -- digests give up at this time (retried on later ticks for up to 6 hours)
  give_up_at        timestamptz,
  sent_at           timestamptz,
  created_at        timestamptz not null default now()
);
create index deliveries_due on deliveries (next_attempt_at) where status = 'pending';
create index deliveries_by_channel on deliveries (channel_id, created_at desc, id desc);
create unique index deliveries_once_per_mention on deliveries (channel_id, alert_id, mention_id) where kind = 'mention';
create unique index deliveries_once_per_event on deliveries (channel_id, account_event_id) where kind = 'event';
create unique index deliveries_once_per_digest on deliveries (channel_id, alert_id, digest_period) where kind = 'digest';

-- How far the account-event outbox has been fanned out to channels (one row).
create table account_event_fanout (
  id        boolean primary key default true check (id),
  last_seq  bigint not null default 0
);
insert into account_event_fanout default values;
