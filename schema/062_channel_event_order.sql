-- team subgraph: the order a webhook channel's account events were given
-- in (spec 2.8 `config.events`). `events` maps each name to when it was
-- subscribed, and jsonb keeps an object's keys shortest first, so a channel
-- created with `["wallet.paused", "keyword.capped"]` listed them the other
-- way round. Channels from before keep the order they were listed in.
alter table channels add column event_order text[] not null default '{}';
update channels set event_order = array(select jsonb_object_keys(events)) where events <> '{}'::jsonb;
