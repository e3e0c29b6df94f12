-- team subgraph: a live subscription opened with an OAuth access token or a
-- dashboard session ends as soon as that credential stops working, as one
-- opened with an API key does (035). These triggers notify
-- `user_credential_changes` with the user's id when one of the user's
-- sessions is signed out, moved or removed, an access token of theirs is
-- revoked or removed, a grant of theirs is revoked or removed, or their
-- membership of a workspace ends; every process holding a subscription of
-- that user looks its credential up again. Delivered when the changing
-- transaction commits; one notification per user and transaction.
create function announce_user_credential_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('user_credential_changes', old.user_id);
  return null;
end
$$;

create trigger session_credential_changes
after update of revoked_at, expires_at or delete on sessions
for each row execute function announce_user_credential_change();

create trigger grant_credential_changes
after update of revoked_at or delete on oauth_grants
for each row execute function announce_user_credential_change();

create trigger membership_credential_changes
after delete on workspace_members
for each row execute function announce_user_credential_change();

-- An access token names its grant, whose user is the one to tell; a token
-- deleted with its grant finds none, and the grant's own trigger tells.
create function announce_access_token_change() returns trigger
language plpgsql as $$
declare
  holder text;
begin
  select user_id into holder from oauth_grants where id = old.grant_id;
  if holder is not null then
    perform pg_notify('user_credential_changes', holder);
  end if;
  return null;
end
$$;

create trigger access_token_credential_changes
after update of expires_at or delete on oauth_tokens
for each row when (old.kind = 'access') execute function announce_access_token_change();
