import path from 'node:path';
import { readConfig } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { startEarshot } from '../server/start.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import { startFakeBluesky } from '../test/fake-upstreams/bluesky.ts';
import { hackerNewsStory, type HackerNewsHit, startFakeHackerNews } from '../test/fake-upstreams/hackernews.ts';
import { jetstreamPostEvent, startFakeJetstream } from '../test/fake-upstreams/jetstream.ts';
import { startFakeNews } from '../test/fake-upstreams/news.ts';
import { redditPost, startFakeReddit } from '../test/fake-upstreams/reddit.ts';

/**
 * `npm run demo`: Earshot against local stand-ins of Hacker News, Reddit,
 * Google News and Bluesky (search and the Jetstream firehose), so a new user
 * sees mentions arrive without any credentials. New posts keep appearing
 * while it runs. Data lives in EARSHOT_DATA_DIR/demo.
 */
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const hits: HackerNewsHit[] = [
  hackerNewsStory({ id: 41000001, title: 'Show HN: Earshot – know when people talk about your product', createdAt: hoursAgo(5), points: 87 }),
  hackerNewsStory({ id: 41000002, title: 'Ask HN: Is Earshot worth it compared to Google Alerts?', createdAt: hoursAgo(30), text: '<p>We need brand monitoring for a small team.</p>' }),
  hackerNewsStory({ id: 41000003, title: 'Earshot outage yesterday, anyone else?', createdAt: hoursAgo(52) }),
];
const hackerNews = await startFakeHackerNews({ hits });
const reddit = await startFakeReddit({
  posts: [
    redditPost({ id: 'demo01', subreddit: 'SaaS', title: 'Switched our brand monitoring to Earshot, thoughts so far', selftext: 'The webhook alerts are great, the digest could be better.', createdAt: hoursAgo(8) }),
    redditPost({ id: 'demo02', subreddit: 'startups', title: 'Which mention tracker do you use? Earshot or something else?', createdAt: hoursAgo(20) }),
  ],
});
const news = await startFakeNews({
  articles: [{ id: 'CBMidemo1', headline: 'Earshot raises seed round to help developers hear their users', source: { name: 'Dev Weekly', url: 'https://devweekly.example' }, publishedAt: hoursAgo(26) }],
});
const bluesky = await startFakeBluesky({ posts: [] });
const jetstream = await startFakeJetstream();

const config = readConfig({
  ...process.env,
  EARSHOT_DATA_DIR: path.join(process.env.EARSHOT_DATA_DIR ?? './.data', 'demo'),
  EARSHOT_POLL_INTERVAL_S: process.env.EARSHOT_POLL_INTERVAL_S ?? '10',
  EARSHOT_UPSTREAM_HACKERNEWS: hackerNews.url,
  EARSHOT_UPSTREAM_REDDIT: reddit.url,
  EARSHOT_UPSTREAM_NEWS: news.url,
  EARSHOT_UPSTREAM_BLUESKY: bluesky.url,
  EARSHOT_UPSTREAM_JETSTREAM: jetstream.url,
});
const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
const earshot = await startEarshot(config, 'all', log);
const { workspace, apiKey } = await provisionWorkspace(earshot.sql, 'Demo workspace');
const created = await fetch(`${earshot.url}/v1/keywords`, {
  method: 'POST',
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    term: 'Earshot',
    platforms: ['hackernews', 'reddit', 'news', 'bluesky'],
    context: 'Earshot is our SaaS product: brand and keyword mention tracking with webhook alerts and digests for developer tools.',
  }),
});
const keyword = (await created.json()) as { id: string };

let next = 1;
const timer = setInterval(() => {
  const n = next++;
  const timeUs = Date.now() * 1000;
  jetstream.publish(
    jetstreamPostEvent({
      did: 'did:plc:demo0000000000000000000000',
      rkey: `3kdemo${String(n).padStart(6, '0')}`,
      timeUs,
      record: { $type: 'app.bsky.feed.post', text: `Day ${n} with Earshot: it caught a customer question we would have missed.`, createdAt: new Date().toISOString(), langs: ['en'] },
    }),
  );
  hits.push(hackerNewsStory({ id: 41000100 + n, title: `Earshot tip #${n}: route buy-intent mentions to Slack`, createdAt: new Date() }));
}, 15_000);

process.stdout.write(`
Earshot demo is running at ${earshot.url} (workspace ${workspace.id}, keyword ${keyword.id}).
New Hacker News and Bluesky posts about "Earshot" arrive every 15 seconds.

  export EARSHOT_KEY=${apiKey}
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${earshot.url}/v1/mentions?relevant=false"
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${earshot.url}/v1/mentions"
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${earshot.url}/v1/keywords/${keyword.id}"

Press Ctrl-C to stop.
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    clearInterval(timer);
    await earshot.stop();
    await Promise.all([hackerNews.close(), reddit.close(), news.close(), bluesky.close(), jetstream.close()]);
    process.exit(0);
  });
}
