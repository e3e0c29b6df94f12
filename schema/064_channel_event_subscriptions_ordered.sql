-- team subgraph: a webhook channel's account event subscriptions become one
-- ordered list, `[{"name": …, "since": …}]`, in the order they were given
-- (spec 2.8 `config.events`). They were an object of name -> since, whose
-- keys jsonb sorts shortest first, plus `event_order` (062) repeating the
-- names to keep the order: two columns to keep in step for one fact.
-- Names of `events` that `event_order` lacks (none are expected) follow the
-- ordered ones, shortest first as jsonb listed them.
update channels c set events = coalesce(
  (select jsonb_agg(jsonb_build_object('name', s.name, 'since', c.events ->> s.name) order by s.position)
   from (
     select o.name, o.position from unnest(c.event_order) with ordinality as o(name, position) where c.events ? o.name
     union all
     select k.name, cardinality(c.event_order) + k.position from jsonb_object_keys(c.events) with ordinality as k(name, position)
     where not (k.name = any(c.event_order))
   ) s),
  '[]'::jsonb)
where jsonb_typeof(events) = 'object';
alter table channels alter column events set default '[]'::jsonb;
alter table channels drop column event_order;
