-- keywords subgraph: gateway processes keep the keyword terms the keywords
-- subgraph answered in memory (subgraphs/keywords/keyword-term-cache.ts), so
-- a page of mentions names its keywords without asking for them again, and
-- drop one when this announces that it changed: renamed, or deleted (alone
-- or with its workspace). The payload is the keyword's id; a notification is
-- delivered when the changing transaction commits, to every process listening.
create function announce_keyword_term_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('keyword_term_changes', old.id);
  return null;
end
$$;

create trigger keyword_term_changes
after update of term or delete on keywords
for each row execute function announce_keyword_term_change();
