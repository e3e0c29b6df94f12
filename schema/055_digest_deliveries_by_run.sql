-- team subgraph: a digest run's deliveries, one per channel of the rule,
-- found together. Spec 3.4 retries a digest only while no channel of the
-- rule has accepted it, so a retry asks whether a sibling was delivered.
create index deliveries_by_digest_run on deliveries (alert_id, digest_period) where kind = 'digest';
