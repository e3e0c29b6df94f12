-- keywords subgraph: when the keyword last took a new term (spec 4.2: a
-- renamed keyword is tracked from then on with no look-back). Polls overlap
-- the last one by an hour and feeds are read from their connection on, so
-- without it posts published before a rename were matched to the new term.
-- Null: never renamed, its look-back and every later post count.
alter table keywords add column term_since timestamptz;
