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
 * while it runs. Data lives in EARSHOT_DATA_DIR/demo. SIGINT or SIGTERM stops
 * it as `npm start` stops: Earshot (PostgreSQL included), then the fakes.
 */
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const hits: HackerNewsHit[] = [
  hackerNewsStory({ id: 41000001, title: 'Show HN: Earshot – know when people talk about your product', createdAt: hoursAgo(5), points: 87 }),
  hackerNewsStory({ id: 41000002, title: 'Ask HN: Is Earshot worth it compared to Google Alerts?', createdAt: hoursAgo(30), text: '<p>We need brand monitoring for a small team.</p>' }),
  hackerNewsStory({ id: 41000003, title: 'Earshot outage yesterday, anyone else?', createdAt: hoursAgo(52) }),
];

/** What has started so far, each with how to stop it; stopped newest first. */
const stops: (() => Promise<unknown>)[] = [];
const { logLevel } = readConfig();
const log = createLogger(logLevel === 'info' ? 'warn' : logLevel);

async function stopDemo(): Promise<void> {
  for (const stop of stops.splice(0).reverse()) await stop().catch((error) => log.error('stop step failed', { error: String(error) }));
}

async function startDemo() {
  const hackerNews = await startFakeHackerNews({ hits });
  stops.push(hackerNews.close);
  const reddit = await startFakeReddit({
    posts: [
      redditPost({ id: 'demo01', subreddit: 'SaaS', title: 'Switched our brand monitoring to Earshot, thoughts so far', selftext: 'The webhook alerts are great, the digest could be better.', createdAt: hoursAgo(8) }),
      redditPost({ id: 'demo02', subreddit: 'startups', title: 'Which mention tracker do you use? Earshot or something else?', createdAt: hoursAgo(20) }),
    ],
  });
  stops.push(reddit.close);
  const news = await startFakeNews({
    articles: [{ id: 'CBMidemo1', headline: 'Earshot raises seed round to help developers hear their users', source: { name: 'Dev Weekly', url: 'https://devweekly.example' }, publishedAt: hoursAgo(26) }],
  });
  stops.push(news.close);
  const bluesky = await startFakeBluesky({ posts: [] });
  stops.push(bluesky.close);
  const jetstream = await startFakeJetstream();
  stops.push(jetstream.close);

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
  const earshot = await startEarshot(config, 'all', log);
  stops.push(earshot.stop);
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
  stops.push(async () => clearInterval(timer));
  return { url: earshot.url, workspace, apiKey, keyword };
}

const startup = startDemo();

let stopping = false;

// Ctrl-C also signals PostgreSQL (it shares the terminal's process group), so
// it may shut down under the demo's own stop; a pg-boss worker then fails to
// record a job's end and rejects where nothing awaits (pg-boss 10 does not
// await complete/fail). While stopping, that is expected and only logged.
process.on('unhandledRejection', (reason) => {
  if (!stopping) throw reason;
  log.debug('lost the database while stopping', { error: String(reason) });
});

// Ctrl-C signals npm, tsx and this process alike, so a signal may come twice
// or more: the first starts the stop, the others must not cut it short. A
// signal during start-up stops the demo once whatever was starting is up.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal} received, stopping the demo\n`);
    await startup.catch(() => {});
    await stopDemo();
    process.exit(0);
  });
}

let demo: Awaited<typeof startup>;
try {
  demo = await startup;
} catch (error) {
  await stopDemo();
  throw error;
}

if (!stopping) {
  process.stdout.write(`
Earshot demo is running at ${demo.url} (workspace ${demo.workspace.id}, keyword ${demo.keyword.id}).
New Hacker News and Bluesky posts about "Earshot" arrive every 15 seconds.

  export EARSHOT_KEY=${demo.apiKey}
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${demo.url}/v1/mentions?relevant=false"
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${demo.url}/v1/mentions"
  curl -s -H "Authorization: Bearer $EARSHOT_KEY" "${demo.url}/v1/keywords/${demo.keyword.id}"

Press Ctrl-C to stop.
`);
}
