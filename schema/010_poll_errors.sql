-- keywords subgraph: why a keyword's poll of a platform failed, and how often
-- in a row, so the schedule backs off from a failing upstream and the keyword's
-- `polling` entries say what is wrong.
alter table keyword_polls
  -- the last failed poll's error, or why the platform is not polled (a missing
  -- setting); null once a poll succeeds
  add column last_error     text,
  add column last_error_at  timestamptz,
  -- failed polls in a row: each one doubles the wait before the next, like empty_polls
  add column failed_polls   integer not null default 0;
