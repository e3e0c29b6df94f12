-- team subgraph: deliveries that go to no channel (owner e-mails about account
-- events, spec 6.4; the workspace's Slack notifications, spec 4.6), the
-- per-user switch for owner e-mails, and the counts behind the sign-in limits.
-- mentions subgraph: hourly digest rules, which may not send to e-mail.

-- Owners get an e-mail for wallet.low, wallet.paused and keyword.capped unless they turned them off.
alter table users add column owner_emails boolean not null default true;

-- A delivery goes to exactly one place: a channel, one owner's address, or the workspace's Slack notifications.
alter table deliveries alter column channel_id drop not null;
alter table deliveries add column user_id text references users (id) on delete cascade;
alter table deliveries add column slack_notifications boolean not null default false;
alter table deliveries add constraint deliveries_one_destination
  check (num_nonnulls(channel_id, user_id, nullif(slack_notifications, false)) = 1);
-- once per owner and event, once per mention to the Slack notifications: a fan-out or scoring run twice enqueues once
create unique index deliveries_once_per_owner_event on deliveries (user_id, account_event_id) where user_id is not null;
create unique index deliveries_once_per_slack_notification on deliveries (workspace_id, mention_id) where slack_notifications;

-- Hourly digests. A rule's channel rows carry the rule's mode and the
-- channel's kind, both kept right by foreign keys (the mode follows the rule
-- on update), so the database itself refuses an hourly rule sending to e-mail,
-- whichever changes first and however two changes interleave.
alter table alert_rules drop constraint alert_rules_mode_check;
alter table alert_rules add constraint alert_rules_mode_check check (mode in ('instant', 'hourly', 'daily', 'weekly'));
alter table alert_rules add constraint alert_rules_id_mode unique (id, mode);
alter table channels add constraint channels_workspace_id_kind unique (workspace_id, id, kind);
alter table alert_rule_channels add column rule_mode text, add column channel_kind text;
update alert_rule_channels rc set rule_mode = r.mode from alert_rules r where r.id = rc.rule_id;
update alert_rule_channels rc set channel_kind = c.kind from channels c where c.id = rc.channel_id;
-- channel_kind stays nullable only so that a channel of another workspace, or none, whose kind is not
-- found, breaks the key below (match full: a null beside a channel id is a violation) rather than a not-null check
alter table alert_rule_channels alter column rule_mode set not null;
alter table alert_rule_channels drop constraint alert_rule_channels_workspace_id_channel_id_fkey;
alter table alert_rule_channels add constraint alert_rule_channels_channel_fkey
  foreign key (workspace_id, channel_id, channel_kind) references channels (workspace_id, id, kind) match full on delete cascade;
alter table alert_rule_channels add constraint alert_rule_channels_rule_mode_fkey
  foreign key (rule_id, rule_mode) references alert_rules (id, mode) on update cascade on delete cascade;
alter table alert_rule_channels add constraint hourly_email_unsupported
  check (not (rule_mode = 'hourly' and channel_kind = 'email'));

-- The sign-in limits count more than failures now (sign-in links asked for, per address and per account).
alter table sign_in_failures rename to sign_in_attempts;
alter table sign_in_attempts rename column failures to attempts;
