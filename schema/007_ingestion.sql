-- Ingestion state: where each live stream resumes after a restart.
create table stream_cursors (
  name        text primary key,
  cursor      text not null,
  updated_at  timestamptz not null default now()
);
