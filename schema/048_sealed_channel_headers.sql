-- team subgraph: a webhook channel's own headers are where a receiver's
-- credentials go (an Authorization or API-key header), and they are sent
-- and shown back, so they are sealed like the signing secret (045): the
-- whole object as JSON, one sealed value per channel; none is null.
-- Rows written before are sealed by the start-up step of
-- runtime/sealed-secrets.ts, which then validates the constraint.
alter table channels alter column headers drop default;
alter table channels alter column headers drop not null;
alter table channels alter column headers type text
  using case when headers = '{}'::jsonb then null else headers::text end;
alter table channels add constraint channels_headers_sealed
  check (headers ~ '^v[0-9]+\.') not valid;
