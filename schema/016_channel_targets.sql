-- team subgraph: where a Slack, Telegram or e-mail channel posts (the Slack
-- channel, the Telegram chat, the e-mail address); a webhook keeps its url.
alter table channels add column target jsonb not null default '{}';
