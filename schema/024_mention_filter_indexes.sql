-- mentions subgraph: what the list filters of spec 4.3 need on a large
-- workspace (measured by `npm run bench -- mentions`, README "Performance").

-- `q`: a substring of the post text or the author name, found through
-- trigrams instead of reading every post, and an author's posts through
-- posts_by_author.
create extension if not exists pg_trgm;
create index posts_text_trigrams on posts using gin (text gin_trgm_ops);
create index authors_name_trigrams on authors using gin (name gin_trgm_ops);
create index posts_by_author on posts (author_id);

-- `sort=priority`: highest attention score first, then newest.
create index mentions_by_priority on mentions (workspace_id, priority desc, created_at desc, id desc);

-- The planner's share of mentions passing a sentiment or relevance filter:
-- without statistics on these expressions it guesses 0.5%, and for a
-- combination of filters it would then read every mention and sort them
-- rather than walk the newest until a page is full.
create statistics mentions_effective_sentiment on (coalesce(verdict_sentiment, sentiment)) from mentions;
create statistics mentions_relevant on (coalesce(verdict_relevant, relevance >= 40, false)) from mentions;
