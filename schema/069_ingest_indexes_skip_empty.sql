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

-- The statement triggers of 060 looked up the rows new mentions and posts
-- name through one function taking the table's name, so each look-up was
-- a dynamic statement, planned afresh on every call with the batch's few
-- hundred ids as constants (pg_stat_statements: 0.6 ms of planning for the
-- posts of a batch of 250, 0.8 ms for the three). Written out per table,
-- each trigger's look-ups are planned once per connection, then run from
-- the cached plan. The rows are locked and a missing one refused as before.
create function refuse_missing_references(tbl text, named bigint, stored bigint, referencing text, fkey text) returns void language plpgsql as $$
begin
  if stored < named then
    raise foreign_key_violation using
      message = format('insert or update on table "%s" violates foreign key constraint "%s"', referencing, fkey),
      detail = format('A row names a row of "%s" that is not stored.', tbl), constraint = fkey, table = referencing;
  end if;
end $$;

create or replace function check_new_mention_references() returns trigger language plpgsql as $$
declare
  keyword_ids text[] := array(select distinct keyword_id from inserted);
  post_ids text[] := array(select distinct post_id from inserted);
begin
  perform refuse_missing_references('keywords', cardinality(keyword_ids),
    (select count(*) from (select 1 from keywords where id = any(keyword_ids) for key share) locked), 'mentions', 'mentions_keyword_id_fkey');
  if exists (select 1 from inserted i where not exists (select 1 from keywords k where k.id = i.keyword_id and k.workspace_id = i.workspace_id)) then
    raise foreign_key_violation using
      message = 'insert or update on table "mentions" violates foreign key constraint "mentions_keyword_id_fkey"',
      detail = 'A mention names a keyword of another workspace.', constraint = 'mentions_keyword_id_fkey', table = 'mentions';
  end if;
  perform refuse_missing_references('posts', cardinality(post_ids),
    (select count(*) from (select 1 from posts where id = any(post_ids) for key share) locked), 'mentions', 'mentions_post_id_fkey');
  return null;
end $$;

create or replace function check_new_post_authors() returns trigger language plpgsql as $$
declare
  author_ids text[] := array(select distinct author_id from inserted);
begin
  perform refuse_missing_references('authors', cardinality(author_ids),
    (select count(*) from (select 1 from authors where id = any(author_ids) for key share) locked), 'posts', 'posts_author_id_fkey');
  return null;
end $$;

drop function lock_referenced_rows(text, text[], text, text);
