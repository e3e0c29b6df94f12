-- team subgraph: where a Slack, Telegram or e-mail channel posts (the Slack
-- channel, the Telegram chat, the e-mail address); a webhook keeps its url.
alter table channels add column target jsonb not null default '{}';
-- an e-mail channel's double opt-in: the sha-256 of the link's token, until confirmed
create unique index channels_by_confirmation_token on channels ((target ->> 'confirmationTokenHash')) where kind = 'email';
