import { afterEach, describe, expect, it } from 'vitest';
import { createDevToConnector } from '../jobs/connectors/devto.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { type DevToArticle, devToArticle, devToComment, foremUser, startFakeDevTo } from './fake-upstreams/devto.ts';
import { type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import type { ForemComment } from '../jobs/connectors/devto.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (hours: number) => new Date(since.getTime() + hours * 3_600_000);

const mention = devToArticle({
  id: 2310001,
  title: 'How we cut alert noise with Earshot',
  bodyHtml: '<h2>\n  <a name="why" href="#why"></a>\n  Why\n</h2>\n<p>Our team tried <a href="https://earshot.example/?utm=devto">Earshot</a> &amp; kept it.</p>\n<pre><code>npm i earshot\n</code></pre>',
  tags: ['monitoring', 'saas'],
  publishedAt: at(5),
  user: { ...foremUser('mara', 4321, 'Mara Díaz'), website_url: 'https://mara.example', twitter_username: 'maradiaz' },
});
const tagged = devToArticle({ id: 2310002, title: 'Weekly roundup', description: 'Tools we liked', bodyHtml: '<p>Lots of tools.</p>', tags: ['earshot'], publishedAt: at(4) });
const unrelated = devToArticle({ id: 2310003, title: 'CSS grid in 5 minutes', bodyHtml: '<p>Grid!</p>', publishedAt: at(3) });

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(articles: DevToArticle[], comments?: Record<number, ForemComment[]>) {
  const fake = await startFakeDevTo({ articles, comments });
  fakes.push(fake);
  return { fake, connector: createDevToConnector({ EARSHOT_UPSTREAM_DEVTO: fake.url }, { retry: fastRetry }) };
}

describe('DEV connector', () => {
  it('scans the newest articles and fetches in full only those that may mention the term', async () => {
    const { fake, connector } = await connectorWith([mention, tagged, unrelated]);
    const page = await connector.search({ term: 'Earshot', exactPhrase: false, since });
    expect(fake.requests.map((request) => [request.path, Object.fromEntries(request.query)])).toEqual([
      ['/api/articles/latest', { per_page: '1000', page: '1' }],
      ['/api/articles/2310001', {}],
      ['/api/articles/2310002', {}],
    ]);
    expect(fake.requests[0].headers.accept).toBe('application/vnd.forem.api-v1+json');
    expect(page.nextCursor).toBeNull();
    expect(page.posts).toEqual([
      {
        platform: 'devto',
        externalId: '2310001',
        url: 'https://dev.to/mara/how-we-cut-alert-noise-with-earshot-1diep',
        text: 'How we cut alert noise with Earshot\n\nWhy\n\nOur team tried Earshot & kept it.\n\nnpm i earshot',
        title: 'How we cut alert noise with Earshot',
        publishedAt: at(5),
        replyTo: null,
        links: ['https://earshot.example/?utm=devto'],
        author: {
          platformId: '4321',
          name: 'Mara Díaz',
          handle: 'mara',
          url: 'https://dev.to/mara',
          avatarUrl: 'https://media2.dev.to/dynamic/image/width=640,height=640,fit=cover,gravity=auto,format=auto/uploads/user/profile_image/4321/avatar.png',
          followers: null,
          links: ['https://mara.example', 'https://github.com/mara', 'https://x.com/maradiaz'],
        },
      },
      expect.objectContaining({ externalId: '2310002', text: 'Weekly roundup\n\nLots of tools.' }),
    ] satisfies NormalizedPost[]);
  });

  it('reads /api/articles where /api/articles/latest is not served, and maps listed articles it cannot read whole', async () => {
    const listed = {
      type_of: 'article',
      id: 99,
      title: 'Why I use Earshot',
      description: 'Alerts without noise, see https://earshot.example',
      url: 'https://dev.to/jo/why-99',
      published_at: '2025-03-01T05:00:00Z',
      tag_list: 'monitoring, saas',
      user: { name: 'Jo', username: 'jo' },
    };
    const fake = await startFakeServer((request) => (request.path === '/api/articles' ? { body: [listed] } : null));
    fakes.push(fake);
    const connector = createDevToConnector({ EARSHOT_UPSTREAM_DEVTO: fake.url }, { retry: fastRetry });
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(fake.requests.map((request) => request.path)).toEqual(['/api/articles/latest', '/api/articles', '/api/articles/99']);
    expect(page.posts).toEqual([{
      platform: 'devto',
      externalId: '99',
      url: 'https://dev.to/jo/why-99',
      text: 'Why I use Earshot\n\nAlerts without noise, see https://earshot.example',
      title: 'Why I use Earshot',
      publishedAt: at(5),
      replyTo: null,
      links: ['https://earshot.example'],
      author: { platformId: 'jo', name: 'Jo', handle: 'jo', url: 'https://dev.to/jo', avatarUrl: null, followers: null, links: [] },
    }]);
    await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(fake.requests.at(-2)?.path).toBe('/api/articles');
  });

  it('keeps the listed articles that parse and reads a published_at without an offset as UTC', async () => {
    const listed = (id: number, fields: Record<string, unknown>) => ({ type_of: 'article', id, title: `Earshot ${id}`, url: `https://dev.to/jo/earshot-${id}`, tag_list: [], ...fields });
    const fake = await startFakeServer((request) => (request.path === '/api/articles' ? { body: [
      listed(98, { published_at: '2025-03-01T06:00:00Z' }),
      listed(99, { published_at: '2025-03-01T05:00:00', user: { name: 'Jo', username: 'jo' } }),
    ] } : null));
    fakes.push(fake);
    const page = await createDevToConnector({ EARSHOT_UPSTREAM_DEVTO: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => [post.externalId, post.publishedAt])).toEqual([['99', at(5)]]);
  });

  it('pages back through the feed until it passes since', async () => {
    const articles = [1, 2, 3, 4, 5].map((n) => devToArticle({ id: n, title: `earshot ${n}`, bodyHtml: '<p>x</p>', publishedAt: at(10 - n) }));
    const old = devToArticle({ id: 6, title: 'earshot, old', bodyHtml: '<p>x</p>', publishedAt: at(-1) });
    const { fake, connector } = await connectorWith([...articles, old, unrelated]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const page = await connector.search({ term: 'earshot', exactPhrase: true, since, limit: 3, cursor });
      seen.push(...page.posts.map((post) => post.externalId));
      cursor = page.nextCursor;
    } while (cursor && ++calls < 10);
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
    expect(fake.requests.filter((request) => request.path === '/api/articles/latest').map((request) => request.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('reads comment trees flattened, newest first, skipping deleted ones but not their replies', async () => {
    const comments = {
      [mention.id]: [
        devToComment({
          idCode: '2k1a',
          bodyHtml: '<p>Great post! Did you try <a href="https://other.example">Other</a>?</p>',
          createdAt: at(6),
          user: foremUser('leo', 55, 'Leo'),
          children: [devToComment({ idCode: '2k1b', bodyHtml: '<p>Yes, Earshot was better.</p>', createdAt: at(8) })],
        }),
        devToComment({ idCode: '2k1c', bodyHtml: '', createdAt: at(7), deleted: true, children: [devToComment({ idCode: '2k1d', bodyHtml: '<p>Orphan reply</p>', createdAt: at(9) })] }),
        devToComment({ idCode: '2k10', bodyHtml: '<p>Too old</p>', createdAt: at(5.5) }),
      ],
    };
    const { fake, connector } = await connectorWith([mention], comments);
    const read = await connector.comments!({ externalId: '2310001', url: 'https://dev.to/mara/how-we-cut-alert-noise-with-earshot-1diep' }, at(5.9), 10);
    expect(fake.requests[0].path).toBe('/api/comments');
    expect(fake.requests[0].query.get('a_id')).toBe('2310001');
    expect(read.map((comment) => [comment.externalId, comment.replyTo])).toEqual([
      ['comment:2k1d', 'https://dev.to/mara/how-we-cut-alert-noise-with-earshot-1diep'],
      ['comment:2k1b', 'https://dev.to/leo/comment/2k1a'],
      ['comment:2k1a', 'https://dev.to/mara/how-we-cut-alert-noise-with-earshot-1diep'],
    ]);
    expect(read[2]).toEqual({
      platform: 'devto',
      externalId: 'comment:2k1a',
      url: 'https://dev.to/leo/comment/2k1a',
      text: 'Great post! Did you try Other?',
      publishedAt: at(6),
      replyTo: 'https://dev.to/mara/how-we-cut-alert-noise-with-earshot-1diep',
      links: ['https://other.example'],
      author: expect.objectContaining({ platformId: '55', name: 'Leo', handle: 'leo' }),
    });
  });

  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith([mention, unrelated]);
    return { fake, call: () => connector.search({ term: 'earshot', exactPhrase: false, since }) };
  });
});
