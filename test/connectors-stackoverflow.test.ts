import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createStackOverflowConnector } from '../jobs/connectors/stackoverflow.ts';
import { createLogger } from '../runtime/logger.ts';
import { UpstreamError } from '../runtime/upstream-http.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import {
  type FakeStackOverflowFixtures,
  stackExchangeUser,
  stackOverflowAnswer,
  stackOverflowComment,
  stackOverflowQuestion,
  startFakeStackOverflow,
} from './fake-upstreams/stackoverflow.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (hours: number) => new Date(since.getTime() + hours * 3_600_000);

const question = stackOverflowQuestion({
  id: 79500001,
  title: 'Why does Earshot&#39;s webhook send &quot;dlv_&quot; ids twice?',
  body: '<p>I followed <a href="https://earshot.example/docs/webhooks" rel="nofollow noreferrer">the docs</a> &amp; got:</p>\n\n<pre><code>dlv_1 &lt;- twice\n</code></pre>\n<p>See also https://gist.example.com/x</p>\n',
  createdAt: at(3),
  owner: stackExchangeUser('Zo&#235; &amp; Co', 31337),
});

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(fixtures: FakeStackOverflowFixtures, env: Record<string, string> = {}) {
  const fake = await startFakeStackOverflow(fixtures);
  fakes.push(fake);
  return { fake, connector: createStackOverflowConnector({ EARSHOT_UPSTREAM_STACKOVERFLOW: fake.url, ...env }, { retry: fastRetry }) };
}

describe('Stack Overflow connector', () => {
  it('calls search/advanced for questions with bodies since the look-back, with the key when set', async () => {
    const { fake, connector } = await connectorWith({ questions: [question] }, { EARSHOT_STACKEXCHANGE_KEY: 'app-key((' });
    await connector.search({ term: 'earshot webhook', exactPhrase: true, since, limit: 100 });
    expect(fake.requests[0].path).toBe('/2.3/search/advanced');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({
      q: '"earshot webhook"',
      sort: 'creation',
      order: 'desc',
      fromdate: String(since.getTime() / 1000),
      pagesize: '100',
      page: '1',
      site: 'stackoverflow',
      filter: 'withbody',
      key: 'app-key((',
    });
  });

  it('maps a question: decoded title and names, HTML body as text, links in order', async () => {
    const { connector } = await connectorWith({ questions: [question] });
    expect(await connector.search({ term: 'earshot', exactPhrase: false, since })).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'stackoverflow',
          externalId: '79500001',
          url: 'https://stackoverflow.com/questions/79500001/why-does-earshots-webhook-send-dlv-ids-twice',
          text: 'Why does Earshot\'s webhook send "dlv_" ids twice?\n\nI followed the docs & got:\n\ndlv_1 <- twice\n\nSee also https://gist.example.com/x',
          title: 'Why does Earshot\'s webhook send "dlv_" ids twice?',
          publishedAt: at(3),
          replyTo: null,
          links: ['https://earshot.example/docs/webhooks', 'https://gist.example.com/x'],
          author: {
            platformId: '31337',
            name: 'Zoë & Co',
            handle: 'Zoë & Co',
            url: 'https://stackoverflow.com/users/31337/zo-235-amp-co',
            avatarUrl: 'https://www.gravatar.com/avatar/00000000000000000000000000007a69?s=256&d=identicon&r=PG',
            followers: null,
          },
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('maps questions of an answer made with the default filter: no body, no link, no quota fields', async () => {
    const fake = await startFakeServer((request) => request.path === '/2.3/search/advanced'
      ? { body: { items: [{ question_id: 7001, title: 'Earshot &amp; webhooks?', creation_date: since.getTime() / 1000 + 60, owner: { display_name: 'Erin', user_id: 77 } }] } }
      : null);
    fakes.push(fake);
    const page = await createStackOverflowConnector({ EARSHOT_UPSTREAM_STACKOVERFLOW: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.nextCursor).toBeNull();
    expect(page.posts).toEqual([expect.objectContaining({
      externalId: '7001',
      url: 'https://stackoverflow.com/q/7001',
      text: 'Earshot & webhooks?',
      links: [],
      author: expect.objectContaining({ name: 'Erin', url: 'https://stackoverflow.com/users/77' }),
    })]);
  });

  it('keeps the questions of a page that parse, warns once of one without an owner, and still fails a page without items', async () => {
    const ownerless: Partial<typeof question> = stackOverflowQuestion({ id: 79500002, title: 'Earshot without an owner', body: '<p>b</p>', createdAt: at(4) });
    delete ownerless.owner;
    const lines: string[] = [];
    const fake = await startFakeStackOverflow({ questions: [ownerless as typeof question, question] });
    fakes.push(fake);
    const connector = createStackOverflowConnector({ EARSHOT_UPSTREAM_STACKOVERFLOW: fake.url }, { retry: fastRetry, logger: createLogger('warn', { write: (line) => lines.push(line) }) });
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => post.externalId)).toEqual(['79500001']);
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({
      level: 'warn',
      platform: 'stackoverflow',
      skipped: 1,
      of: 2,
      firstProblem: 'item 0: owner: Invalid input: expected object, received undefined',
    })]);

    const envelopeless = await startFakeServer((request) => request.path === '/2.3/search/advanced' ? { body: { has_more: false } } : null);
    fakes.push(envelopeless);
    const refused = await createStackOverflowConnector({ EARSHOT_UPSTREAM_STACKOVERFLOW: envelopeless.url }, { retry: fastRetry })
      .search({ term: 'earshot', exactPhrase: false, since })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect((refused as UpstreamError).reason).toMatch(/^unexpected response: items: /);
  });

  it('pages while has_more says so', async () => {
    const questions = [1, 2, 3].map((n) => stackOverflowQuestion({ id: n, title: `earshot ${n}`, body: '<p>b</p>', createdAt: at(10 - n) }));
    const { fake, connector } = await connectorWith({ questions });
    const first = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2 });
    const second = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor: first.nextCursor });
    expect([first, second].map((page) => [page.posts.map((post) => post.externalId), page.nextCursor])).toEqual([[['1', '2'], '2'], [['3'], null]]);
    expect(fake.requests[1].query.get('page')).toBe('2');
  });

  it('honours backoff per method: waits a short one, refuses a long one with retryAfterSeconds', async () => {
    const { fake, connector } = await connectorWith({ questions: [question] });
    fake.backoffNext(1);
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    const started = Date.now();
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    fake.backoffNext(10);
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    const refused = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect((refused as UpstreamError).retryAfterSeconds).toBe(10);
    expect(fake.requests).toHaveLength(3);
    // Another method is not paused.
    await connector.comments!({ externalId: '79500001', url: question.link }, since, 5);
    expect(fake.requests).toHaveLength(5);
  });

  it('stops calling once the daily quota is spent', async () => {
    const { fake, connector } = await connectorWith({ questions: [question], quotaRemaining: 1 });
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    const refused = await connector.search({ term: 'earshot', exactPhrase: false, since }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect((refused as UpstreamError).retryAfterSeconds).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
  });

  it('reads new answers and new comments on the question and on old answers, newest first', async () => {
    const oldAnswer = stackOverflowAnswer({ id: 79500100, questionId: 79500001, body: '<p>Old answer</p>', createdAt: at(4) });
    const newAnswer = stackOverflowAnswer({ id: 79500200, questionId: 79500001, body: '<p>Use <code>idempotencyKey</code>, see <a href="/questions/1/x">this</a>.</p>', createdAt: at(30) });
    const { fake, connector } = await connectorWith({
      questions: [question],
      answers: [oldAnswer, newAnswer],
      comments: [
        stackOverflowComment({ id: 140001, postId: 79500001, body: 'Which version of Earshot?', createdAt: at(20) }),
        stackOverflowComment({ id: 140002, postId: 79500100, body: 'This fixed it, thanks', createdAt: at(40), owner: stackExchangeUser('user123') }),
        stackOverflowComment({ id: 140000, postId: 79500001, body: 'too early', createdAt: at(5) }),
      ],
    });
    const read = await connector.comments!({ externalId: '79500001', url: question.link }, at(10), 10);
    expect(fake.requests.map((request) => request.path)).toEqual(['/2.3/questions/79500001/answers', '/2.3/posts/79500001;79500200;79500100/comments']);
    expect(fake.requests[1].query.get('fromdate')).toBe(String(at(10).getTime() / 1000));
    expect(read).toEqual([
      {
        platform: 'stackoverflow',
        externalId: 'comment:140002',
        url: `${question.link}#comment140002_79500100`,
        text: 'This fixed it, thanks',
        publishedAt: at(40),
        replyTo: 'https://stackoverflow.com/a/79500100',
        links: [],
        author: { platformId: 'user123', name: 'user123', handle: 'user123', url: '', avatarUrl: null, followers: null },
      },
      {
        platform: 'stackoverflow',
        externalId: '79500200',
        url: 'https://stackoverflow.com/a/79500200',
        text: 'Use idempotencyKey, see this.',
        publishedAt: at(30),
        replyTo: question.link,
        links: ['https://stackoverflow.com/questions/1/x'],
        author: expect.objectContaining({ platformId: '5151', name: 'Grace' }),
      },
      expect.objectContaining({ externalId: 'comment:140001', replyTo: question.link, url: `${question.link}#comment140001_79500001` }),
    ]);
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith({ questions: [question] });
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
