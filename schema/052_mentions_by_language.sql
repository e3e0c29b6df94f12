-- mentions subgraph: the list filtered by one language (`languages=de`,
-- spec 4.3), newest first (issue 14 point 10, `npm run bench -- mentions`,
-- README "Mentions list and export"). Walking `mentions_by_workspace` and
-- dropping the other languages read about ten mentions for each one kept
-- (a page of `languages=de` with a sentiment and intents read 10,125 rows
-- for 57); this walks only the language's own mentions, in list order.
create index mentions_by_language on mentions (workspace_id, language, created_at desc, id desc);
