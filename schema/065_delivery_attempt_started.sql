-- team subgraph: when the attempt under way of a delivery began, null while
-- none is. A dispatcher marks it as it claims the delivery and clears it as
-- it records the outcome, so a claim that finds it still set knows a sender
-- died mid-attempt (kill -9, a crash): that attempt may well have reached
-- the endpoint, and it counts towards the 5 (spec 3.4) like any other.
alter table deliveries add column attempt_started_at timestamptz;
