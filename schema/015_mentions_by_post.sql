-- mentions subgraph: a post's mentions (one per keyword it matched) found from
-- the post, for the Slack Interacted button that marks them all done.
create index mentions_by_post on mentions (post_id);
