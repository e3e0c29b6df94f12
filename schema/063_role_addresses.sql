-- runtime: where each part of a deployment of many processes answers
-- (`npm start -- --role …`), so that the processes find each other through
-- the one database they share (operating contract, "roles": each runs
-- "against DATABASE_URL"). A subgraph process records its address under
-- `subgraph:<name>`, a gateway (or an all-in-one process) under `gateway`;
-- the gateway reads the subgraphs' and the facade the gateway's. The last
-- process to start in a role names its address.
create table role_addresses (
  role text primary key,
  url text not null,
  recorded_at timestamptz not null default now()
);
