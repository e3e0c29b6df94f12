-- mentions subgraph: a post's title where its platform gives one (a Hacker
-- News story, a Reddit post, a GitHub issue or repository, a Stack Overflow
-- question, a dev.to article, a YouTube video, a news article, a feed item,
-- a review's headline), kept apart from `text`, which still holds title and
-- body joined. Null for platforms without titles and for posts stored
-- before this column, whose title cannot be told from their text.
alter table posts add column title text;
