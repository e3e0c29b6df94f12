-- keywords subgraph: the look-back a keyword is owed while it is not
-- running (muted by hand, for balance or for noise, or at its cap; spec
-- 4.2, 2.3, part 8). It was a pg-boss job queued again every base interval
-- until the keyword ran (288 jobs a day at 300 s, for ever if it never
-- ran), which woke up to an interval after the keyword started while its
-- overdue regular polls were claimed at once: each platform was searched
-- twice. The row is written in the transaction of the write that owes it
-- and taken in the one that starts the keyword (or, when billing starts it,
-- by the poll scheduler's next pass), so a crash loses no look-back.
--
-- One row per keyword: `whole` is a new keyword's look-back (everything the
-- keyword watches when it runs); otherwise the search platforms, feed
-- addresses and storefronts (`platform:id:country`) that writes added. A
-- second write merges into the row. While a row exists, none of the
-- keyword's regular polls is claimed.
create table keyword_lookbacks (
  keyword_id   text primary key references keywords (id) on delete cascade,
  whole        boolean not null,
  platforms    text[] not null default '{}',
  feed_urls    text[] not null default '{}',
  storefronts  text[] not null default '{}',
  owed_since   timestamptz not null default now()
);
