-- team subgraph: whether an authorization request named its redirect_uri.
-- RFC 6749 4.1.3: a token request must repeat the redirect_uri when the
-- authorization request carried one, and may leave it out when the request
-- relied on the client's only registered one. Codes live five minutes, so
-- the ones issued before this column say true, the stricter reading.
alter table oauth_authorization_codes add column redirect_uri_named boolean not null default true;
