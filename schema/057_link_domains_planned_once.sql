-- mentions subgraph: `link_domains` (023), which computes the stored
-- generated column `posts.link_domains`, as PL/pgSQL. As a SQL function that
-- PostgreSQL cannot inline (it aggregates), its statement was planned anew
-- for every post stored: pg_stat_statements counted one plan per call, and
-- the planning alone came to a fifth of the statement storing a batch of
-- posts and mentions (issue 18, aim 4). PL/pgSQL plans the statement once
-- per session, and a post without links returns before reaching it. The
-- results are the same, so the values stored already stay as they are.
create or replace function link_domains(links text[]) returns text[]
language plpgsql immutable strict parallel safe
as $$
begin
  if cardinality(links) = 0 then
    return '{}';
  end if;
  return (
    select coalesce(array_agg(distinct array_to_string(labels[i:], '.')), '{}')
    from unnest(links) as link,
         lateral (select string_to_array(lower(substring(link from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')), '.') as labels) as host,
         lateral generate_subscripts(host.labels, 1) as i
  );
end
$$;
