-- mentions subgraph: a keyword page's stats, noise and health (spec 2.1.4;
-- issue 18 point 2, measured by `npm run bench -- gateway`, README
-- "Gateways"). keywordMatchCounts counts a keyword's matches by match and
-- publication time, score and verdict: with those columns included, each
-- keyword is one index range read without the table, where a sequential
-- scan of every mention hashed to the keywords asked cost three times as
-- much on 5,000 mentions and grew with the whole table. The key stays
-- (keyword_id, created_at): read backwards, it serves the newest-first
-- reads the index it replaces served.
create index mentions_by_keyword_counted on mentions (keyword_id, created_at)
  include (published_at, fuzzy, relevance, verdict_relevant);
drop index mentions_by_keyword;
