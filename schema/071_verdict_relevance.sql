-- mentions subgraph: the relevance score a user's verdict sets, shown in
-- place of the classifier's. The compatibility API's relevance write of 0
-- or 1 sets the score to 100 (spec 4.8); a /v1 verdict gives only
-- `relevant` and keeps the classifier's score in view, so it leaves this
-- null. Set only beside `verdict_relevant` true, and cleared whenever the
-- verdict changes; the classifier's own score stays in `relevance`, which
-- `classification.feedback.original` shows. No check constraint: on the
-- partitioned table one would scan every month under an exclusive lock,
-- where a bare nullable column is a catalogue change.
alter table mentions add column verdict_relevance smallint;
