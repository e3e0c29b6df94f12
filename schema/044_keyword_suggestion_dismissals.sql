-- keywords subgraph: rule suggestions are measured afresh on every read, so
-- a rejected one (Octolens's suggestion dismissal, spec 4.8) is remembered by
-- its keyword, type and values and is not offered again for that keyword.
create table keyword_suggestion_dismissals (
  keyword_id   text not null references keywords (id) on delete cascade,
  suggestion   text not null,
  dismissed_at timestamptz not null,
  primary key (keyword_id, suggestion)
);
