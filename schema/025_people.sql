-- mentions subgraph: people (spec 2.11.3, 3.5.2, 4.7). Authors are platform
-- accounts shared by every workspace; a person is one workspace's view of
-- one or more of them, with that workspace's outreach.

-- What an account's profile says about it, for merging accounts into people:
-- its own profile address and the addresses the profile links to, each as a
-- comparison key (see profile-links.ts), plus the links as the platform gave
-- them; null until a platform said what the profile links to.
alter table authors
  add column profile_key    text,
  add column link_keys      text[],
  add column profile_links  text[];
create index authors_by_profile_key on authors (profile_key);
create index authors_by_link_keys on authors using gin (link_keys);

-- a person's mentions are found from its accounts' posts through
-- posts_by_author (migration 024)

create table people (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  -- outreach (spec 2.11.3): the owner must be a member of this workspace; one
  -- who leaves leaves the person unowned
  owner_id      text,
  stage         text not null default 'not_contacted'
                check (stage in ('not_contacted', 'contacted', 'replied', 'in_talks', 'customer', 'not_a_fit')),
  -- muted people's mentions are never delivered and stay out of lists (spec 4.3, 6.1, 6.3)
  muted         boolean not null default false,
  created_at    timestamptz not null default now(),
  unique (workspace_id, id),
  foreign key (workspace_id, owner_id) references workspace_members (workspace_id, user_id) on delete set null (owner_id)
);
create index people_by_workspace on people (workspace_id, created_at desc, id desc);

-- Every author a workspace has seen belongs to exactly one of its people.
create table person_accounts (
  workspace_id  text not null,
  author_id     text not null references authors (id),
  person_id     text not null,
  -- split out by hand: automatic merging never moves it again
  held          boolean not null default false,
  primary key (workspace_id, author_id),
  foreign key (workspace_id, person_id) references people (workspace_id, id) on delete cascade
);
create index person_accounts_by_person on person_accounts (person_id);

-- Outreach activities (spec 2.11.4): a contact logged against a person.
create table person_activities (
  id            text primary key,
  workspace_id  text not null,
  person_id     text not null,
  -- the account contacted, when the activity names one; it moves with the account on a split
  author_id     text references authors (id),
  channel       text not null,
  note          text not null,
  -- who made it: the signed-in user, or the member an API key logged it for
  user_id       text references users (id) on delete set null,
  -- the key it was logged with, when it came through one
  api_key_id    text references api_keys (id) on delete set null,
  occurred_at   timestamptz not null,
  created_at    timestamptz not null default now(),
  foreign key (workspace_id, person_id) references people (workspace_id, id) on delete cascade
);
create index person_activities_by_person on person_activities (person_id, occurred_at desc, id desc);

-- Mentions stored before people existed: one person per account and workspace.
-- The ids follow the `per_` form with a random body (creation order is kept by created_at).
with seen as (
  select m.workspace_id, p.author_id, min(m.created_at) as first_seen,
         'per_' || substr(md5(random()::text || clock_timestamp()::text || m.workspace_id || p.author_id), 1, 26) as person_id
  from mentions m join posts p on p.id = m.post_id
  group by m.workspace_id, p.author_id
), created as (
  insert into people (id, workspace_id, created_at)
  select person_id, workspace_id, first_seen from seen
  returning id
)
insert into person_accounts (workspace_id, author_id, person_id)
select workspace_id, author_id, person_id from seen;
