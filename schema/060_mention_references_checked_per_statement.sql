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
-- the statement's ids: a join from the new rows is planned as a read of the
-- whole table), so a keyword, post or author cannot be
-- deleted before the rows naming it commit, and refuses the statement, with
-- the foreign key's error code and name, when one of them is missing. What
-- the keys did on the other side, triggers on keywords, posts and authors
-- do: a deleted keyword takes its mentions with its keys, and a post with
-- mentions or an author with posts cannot be deleted. The foreign keys also
-- guarded updates of those columns: nothing changes them, and a row trigger
-- now refuses it. Rows make_months moves into a month were checked when
-- they were written, and it moves them with the triggers off.
alter table mentions drop constraint mentions_keyword_id_fkey, drop constraint mentions_post_id_fkey;
alter table posts drop constraint posts_author_id_fkey;

create function refuse_missing_reference(tbl text, fkey text, detail text) returns void language plpgsql as $$
begin
  raise foreign_key_violation using
    message = format('insert or update on table "%s" violates foreign key constraint "%s"', tbl, fkey),
    detail = detail, constraint = fkey, table = tbl;
end $$;

create function check_new_mention_references() returns trigger language plpgsql as $$
declare
  locked bigint;
begin
  perform 1 from keywords k
  where k.id = any(array(select distinct keyword_id from inserted))
    and (k.id, k.workspace_id) in (select keyword_id, workspace_id from inserted)
  for key share of k;
  get diagnostics locked = row_count;
  if locked < (select count(*) from (select distinct keyword_id, workspace_id from inserted) named) then
    perform refuse_missing_reference('mentions', 'mentions_keyword_id_fkey', 'A mention names no keyword of its workspace.');
  end if;
  perform 1 from posts p where p.id = any(array(select distinct post_id from inserted)) for key share of p;
  get diagnostics locked = row_count;
  if locked < (select count(distinct post_id) from inserted) then
    perform refuse_missing_reference('mentions', 'mentions_post_id_fkey', 'A mention names a post that is not stored.');
  end if;
  return null;
end $$;

create trigger mentions_check_references after insert on mentions
  referencing new table as inserted for each statement execute function check_new_mention_references();

create function check_new_post_authors() returns trigger language plpgsql as $$
declare
  locked bigint;
begin
  perform 1 from authors a where a.id = any(array(select distinct author_id from inserted)) for key share of a;
  get diagnostics locked = row_count;
  if locked < (select count(distinct author_id) from inserted) then
    perform refuse_missing_reference('posts', 'posts_author_id_fkey', 'A post names an author that is not stored.');
  end if;
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

create function refuse_deleting_referenced_posts() returns trigger language plpgsql as $$
begin
  if exists (select 1 from mentions where post_id = any(array(select id from deleted))) then
    raise foreign_key_violation using
      message = 'update or delete on table "posts" violates foreign key constraint "mentions_post_id_fkey" on table "mentions"',
      constraint = 'mentions_post_id_fkey', table = 'mentions';
  end if;
  return null;
end $$;

create trigger posts_refuse_deleting_mentioned after delete on posts
  referencing old table as deleted for each statement execute function refuse_deleting_referenced_posts();

create function refuse_deleting_posting_authors() returns trigger language plpgsql as $$
begin
  if exists (select 1 from posts where author_id = any(array(select id from deleted))) then
    raise foreign_key_violation using
      message = 'update or delete on table "authors" violates foreign key constraint "posts_author_id_fkey" on table "posts"',
      constraint = 'posts_author_id_fkey', table = 'posts';
  end if;
  return null;
end $$;

create trigger authors_refuse_deleting_posting after delete on authors
  referencing old table as deleted for each statement execute function refuse_deleting_posting_authors();
