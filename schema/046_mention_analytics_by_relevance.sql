-- mentions subgraph: analytics on a large workspace (issue 14 points 5 and
-- 10, measured by `npm run bench -- analytics`, README "Performance").
-- Counting reads one index range and never the table; with the relevance
-- rule as a key column between the workspace and the publication time, a
-- count of the relevant mentions (the default) or of the rest reads only
-- those, where reading every mention of the range and dropping four in ten
-- was most of a request's time; a count of every mention reads both ranges
-- (a skip scan). The key is the rule of relevantSql (subgraphs/mentions/
-- relevance.ts) written out with its line, 40 (vocabulary/relevance.ts): the
-- statement names the same expression, so it matches the index; the columns
-- it reads are included, so the scan stays index-only.
create index mentions_by_relevance_and_publication on mentions
  (workspace_id, (coalesce(verdict_relevant, relevance >= 40, false)), published_at)
  include (keyword_id, platform, relevance, verdict_relevant, sentiment, verdict_sentiment, language, intents);
drop index mentions_by_publication;
