-- mentions subgraph: a mention keeps its post's link domains (023), and
-- the `linkHosts` filters read them there. Read from the post, the
-- filter found the posts linking to a host through the posts' GIN index
-- and then each one's mention by `mentions_by_post`, one index descent a
-- post in every month's partition: for `linkHosts=docs.rs` on 1,000,000
-- mentions, 1,024 posts and some 7,000 buffers of descents, half of the
-- statement's 13-15 ms (PERFORMANCE.md, "Mentions list and export"). The
-- mentions' own index is read once a month, and only the few mentions it
-- finds are then joined to their posts. A post's links are written once,
-- with the post (a post stored again keeps them), so the copy cannot
-- drift. The posts' index served only this filter and goes; the mentions'
-- holds only mentions with links, as it did (069), so a mention without
-- any adds no entry.
alter table mentions add column link_domains text[] not null default '{}';

-- Copying the domains changes nothing the keywords' counted days (072)
-- read, and no reference (060): the table's triggers would only compare.
alter table mentions disable trigger user;
update mentions m set link_domains = p.link_domains
from posts p
where p.id = m.post_id and cardinality(p.link_domains) > 0;
alter table mentions enable trigger user;

create index mentions_by_link_domain on mentions using gin (link_domains) where cardinality(link_domains) > 0;
drop index posts_by_link_domain;
