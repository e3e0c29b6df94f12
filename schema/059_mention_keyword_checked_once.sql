-- mentions subgraph: a stored mention's keyword and workspace are checked by
-- one foreign key instead of three (issue 18, aim 4). Each foreign key runs
-- a look-up of its own per row written, an executor started and a row
-- locked: five of them for every stored mention (its post's author, its
-- key's keyword, its workspace, keyword and post), about a sixth of
-- PostgreSQL's time storing a batch.
--
-- A mention's keyword belongs to the mention's workspace (the matcher
-- reports both from the keyword, and a keyword never changes workspace), so
-- one composite key to `keywords (id, workspace_id)` says what the two
-- single ones said and more; deleting a workspace still deletes its
-- mentions, through its keywords.
--
-- A key is only written by the statement writing its mention
-- (`storeMatchedPosts` inserts the mentions whose keys it wrote), so the
-- mention's check covers the key's keyword. What the key's foreign key also
-- did, deleting the keys (and through them comments, watches and feedback)
-- with their keyword, a statement trigger on keywords does.
create unique index keywords_id_in_workspace on keywords (id, workspace_id);

alter table mentions drop constraint mentions_workspace_id_fkey,
  drop constraint mentions_keyword_id_fkey,
  add constraint mentions_keyword_id_fkey foreign key (keyword_id, workspace_id)
    references keywords (id, workspace_id) on delete cascade;

alter table mention_keys drop constraint mention_keys_keyword_id_fkey;

create function delete_keyword_mention_keys() returns trigger language plpgsql as $$
begin
  delete from mention_keys k using deleted d where k.keyword_id = d.id;
  return null;
end $$;

create trigger keywords_delete_mention_keys after delete on keywords
  referencing old table as deleted for each statement execute function delete_keyword_mention_keys();
