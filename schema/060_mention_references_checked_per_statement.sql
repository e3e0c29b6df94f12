-- mentions subgraph: a stored mention's keyword and post, and a post's
-- author, are checked once per statement instead of once per row (issue 18,
-- aim 4). Their three foreign keys (059 left them) each ran a query of
-- their own per row written, an executor started and stopped for every
-- look-up: 12% of PostgreSQL's CPU storing a batch of 250 posts, where one
-- statement per insert finds and locks the rows a batch names (a few
-- hundred posts and authors, a few dozen keywords) at once.
--
-- Each insert statement's trigger locks the rows its new rows name as a
-- foreign key did (`for key share`, probing each table's primary key with
-- the statement's ids: a join from the new rows was planned as a read of
-- the whole table), so a keyword, post or author cannot be deleted before
-- the rows naming it commit, and refuses the statement, with the foreign
-- key's error code and name, when one of them is missing, or when a
-- mention's keyword is another workspace's (059's composite key). What
-- the keys did on the other side, triggers on keywords, posts and authors
-- do: a deleted keyword takes its mentions with its keys, and a post with
-- mentions or an author with posts cannot be deleted. The foreign keys also
-- guarded updates of those columns: nothing changes them, and a row trigger
-- now refuses it. Rows make_months moves into a month were checked when
-- they were written, and it moves them with the triggers off.
alter table mentions drop constraint mentions_keyword_id_fkey, drop constraint mentions_post_id_fkey;
alter table posts drop constraint posts_author_id_fkey;

-- Locks the rows of `tbl` with these ids as a foreign key's check does, and
-- refuses the statement, as the key `fkey` of `referencing` would, when one
-- of them is missing.
create function lock_referenced_rows(tbl text, ids text[], referencing text, fkey text) returns void language plpgsql as $$
declare
  locked bigint;
begin
  execute format('select count(*) from (select 1 from %I where id = any($1) for key share) locked', tbl) into locked using ids;
  if locked < cardinality(ids) then
    raise foreign_key_violation using
      message = format('insert or update on table "%s" violates foreign key constraint "%s"', referencing, fkey),
      detail = format('A row names a row of "%s" that is not stored.', tbl), constraint = fkey, table = referencing;
  end if;
end $$;

create function check_new_mention_references() returns trigger language plpgsql as $$
begin
  perform lock_referenced_rows('keywords', array(select distinct keyword_id from inserted), 'mentions', 'mentions_keyword_id_fkey');
  if exists (select 1 from inserted i where not exists (select 1 from keywords k where k.id = i.keyword_id and k.workspace_id = i.workspace_id)) then
    raise foreign_key_violation using
      message = 'insert or update on table "mentions" violates foreign key constraint "mentions_keyword_id_fkey"',
      detail = 'A mention names a keyword of another workspace.', constraint = 'mentions_keyword_id_fkey', table = 'mentions';
  end if;
  perform lock_referenced_rows('posts', array(select distinct post_id from inserted), 'mentions', 'mentions_post_id_fkey');
  return null;
end $$;

create trigger mentions_check_references after insert on mentions
  referencing new table as inserted for each statement execute function check_new_mention_references();

create function check_new_post_authors() returns trigger language plpgsql as $$
begin
  perform lock_referenced_rows('authors', array(select distinct author_id from inserted), 'posts', 'posts_author_id_fkey');
  return null;
end $$;

create trigger posts_check_authors after insert on posts
  referencing new table as inserted for each statement execute function check_new_post_authors();

create function refuse_reference_change() returns trigger language plpgsql as $$
begin
  raise foreign_key_violation using
    message = format('the references of a row of "%s" are fixed once it is written', tg_table_name),
    table = tg_table_name;
end $$;

create trigger mentions_references_fixed before update of keyword_id, workspace_id, post_id on mentions for each row
  when (old.keyword_id is distinct from new.keyword_id or old.workspace_id is distinct from new.workspace_id or old.post_id is distinct from new.post_id)
  execute function refuse_reference_change();

create trigger posts_author_fixed before update of author_id on posts for each row
  when (old.author_id is distinct from new.author_id)
  execute function refuse_reference_change();

create or replace function delete_keyword_mention_keys() returns trigger language plpgsql as $$
begin
  delete from mention_keys where keyword_id = any(array(select id from deleted));
  delete from mentions where keyword_id = any(array(select id from deleted));
  return null;
end $$;

-- Refuses deleting rows that rows of another table name, as a foreign key
-- without cascade does (arguments: that table, its column, the key's name).
create function refuse_deleting_referenced() returns trigger language plpgsql as $$
declare
  referenced boolean;
begin
  execute format('select exists (select 1 from %I where %I = any($1))', tg_argv[0], tg_argv[1])
    into referenced using array(select id from deleted);
  if referenced then
    raise foreign_key_violation using
      message = format('update or delete on table "%s" violates foreign key constraint "%s" on table "%s"', tg_table_name, tg_argv[2], tg_argv[0]),
      constraint = tg_argv[2], table = tg_argv[0];
  end if;
  return null;
end $$;

create trigger posts_refuse_deleting_mentioned after delete on posts
  referencing old table as deleted for each statement execute function refuse_deleting_referenced('mentions', 'post_id', 'mentions_post_id_fkey');

create trigger authors_refuse_deleting_posting after delete on authors
  referencing old table as deleted for each statement execute function refuse_deleting_referenced('posts', 'author_id', 'posts_author_id_fkey');
