-- mentions subgraph: two indexes leave out the rows no read looks for in
-- them, so storing a post or a mention no longer writes an entry there
-- (issue 18, aim 4). A post without links has no link domains, and the
-- `linkHosts` filters, which the links index serves, never pick it (`&&` of
-- an empty array is false; they now say so, see mention-filter.ts); yet
-- every such post, nearly all of them, added an empty item to the GIN
-- index's pending list, with a WAL record. A mention's language is null
-- until it is scored, and the one-language filter this index serves
-- (`language = $1`, migration 052) never picks a null. Storing 8,000 bench
-- mentions, alternated four times in one server: 145-160 µs of PostgreSQL
-- CPU a mention against 156-174 with both indexes whole.
drop index posts_by_link_domain;
create index posts_by_link_domain on posts using gin (link_domains) where cardinality(link_domains) > 0;
drop index mentions_by_language;
create index mentions_by_language on mentions (workspace_id, language, created_at desc, id desc) where language is not null;
