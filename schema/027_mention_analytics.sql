-- mentions subgraph: analytics (issue 14 point 5). A mention carries its
-- post's publication time and platform, which never change, so counting a
-- workspace's mentions by time reads one index and never the posts: the
-- index below holds every column a count groups or filters on.
alter table mentions
  add column if not exists published_at timestamptz,
  add column if not exists platform text;
update mentions m set published_at = p.published_at, platform = p.platform
from posts p where p.id = m.post_id and (m.published_at is null or m.platform is null);
alter table mentions
  alter column published_at set not null,
  alter column platform set not null;
create index mentions_by_publication on mentions (workspace_id, published_at)
  include (keyword_id, platform, relevance, verdict_relevant, sentiment, verdict_sentiment, language, intents);
