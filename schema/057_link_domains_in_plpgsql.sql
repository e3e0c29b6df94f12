-- mentions subgraph: `link_domains` (023), which computes the stored
-- generated column `posts.link_domains`, as PL/pgSQL that runs no query.
-- As a SQL function PostgreSQL cannot inline (it aggregates), it ran a
-- statement of its own for every post stored, planned anew each time
-- (pg_stat_statements counted one plan per call): about 40 µs of
-- PostgreSQL CPU a post without links, a fifth of the statement storing a
-- batch of posts and mentions (issue 18, aim 4). Here every step is an
-- expression PL/pgSQL evaluates without the executor. The domains come out
-- distinct and sorted as `array_agg(distinct …)` gave them, so the values
-- stored already stay as they are.
create or replace function link_domains(links text[]) returns text[]
language plpgsql immutable strict parallel safe
as $$
declare
  domains text[] := '{}';
  link text;
  labels text[];
  domain text;
  at int;
begin
  foreach link in array links loop
    labels := string_to_array(lower(substring(link from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')), '.');
    continue when labels is null;
    for i in 1 .. cardinality(labels) loop
      domain := array_to_string(labels[i:], '.');
      at := 1;
      while at <= cardinality(domains) and domains[at] < domain loop
        at := at + 1;
      end loop;
      if at > cardinality(domains) or domains[at] <> domain then
        domains := domains[:at - 1] || domain || domains[at:];
      end if;
    end loop;
  end loop;
  return domains;
end
$$;
