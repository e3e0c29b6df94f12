import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeComment } from '../subgraphs/mentions/comment-store.ts';
import { announceMentionsCreated, announceMentionsUpdated, saveClassification, storeMatchedPost, storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { recordPollError } from '../subgraphs/keywords/index.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import type { Sentiment } from '../vocabulary/classification-values.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { openBrowser, signInWithPassword, type TestBrowser } from './browser.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';
import { eventually, patiently, startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';
import { newMention, storeUntilDelivered } from './live-mentions.ts';

/**
 * The dashboard in a real browser (Debian's Chromium driven by
 * playwright-core) against a whole Earshot: what a person does, checked
 * through the API afterwards.
 */

let earshot: TestEarshot;
let browser: TestBrowser;
let smtp: FakeSmtp;
let receiver: WebhookReceiver;
let slack: FakeSlack;
let workspace: { id: string; name: string };
let apiKey: string;
/** The key of ada's second workspace, "Side project". */
let sideApiKey: string;
let owner: { id: string; name: string };

const password = 'correct horse battery';
/** The address mails and Slack's redirect name; the browser is sent from it to the test's server (`sameServer`). */
// http, as the test's server is: an https address would make the session cookies Secure.
const publicUrl = 'http://earshot.example';

/** Lets the page follow links to the public address (mailed links, Slack's redirect) to this test's server. */
async function sameServer(page: Page): Promise<void> {
  await page.route(`${publicUrl}/**`, (route) => {
    const url = new URL(route.request().url());
    return route.fulfill({ status: 302, headers: { location: `${earshot.url}${url.pathname}${url.search}` } });
  });
}

beforeAll(async () => {
  smtp = await startFakeSmtp();
  receiver = await startWebhookReceiver();
  slack = await startFakeSlack();
  earshot = await startTestEarshot({
    env: {
      ...unreachableUpstreams,
      EARSHOT_SMTP_URL: smtp.url,
      EARSHOT_MAIL_FROM: 'Earshot <signin@earshot.example>',
      EARSHOT_ALLOW_PRIVATE_URLS: '1',
      EARSHOT_SLACK_CLIENT_ID: slack.clientId,
      EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret,
      EARSHOT_SLACK_SIGNING_SECRET: 'signing-secret',
      EARSHOT_UPSTREAM_SLACK: slack.url,
      EARSHOT_PUBLIC_URL: publicUrl,
    },
  });
  const created = await provisionWorkspace(earshot.sql, 'Acme', { ownerEmail: 'ada@example.com' });
  sideApiKey = (await provisionWorkspace(earshot.sql, 'Side project', { ownerEmail: 'ada@example.com' })).apiKey;
  await setUserPassword(earshot.sql, 'ada@example.com', password);
  workspace = created.workspace;
  apiKey = created.apiKey;
  owner = created.owner!;
  browser = await openBrowser();
  // The first sign-in of a process is its slowest (scrypt's first 32 MB, the first plan of the operation); the tests time what a person sees after that.
  const warmUp = await patiently(() => earshot.rest('POST', '/v1/auth/password', { body: { email: 'ada@example.com', password } }), 60_000);
  expect(warmUp.status).toBe(200);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await earshot?.stop();
  await receiver?.close();
  await slack?.close();
  await smtp?.close();
});

/** A signed-in page, its session in a context of its own. */
async function signedInPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.context().clearCookies();
  await signInWithPassword(page, earshot.url, 'ada@example.com', password);
  return page;
}

const api = (method: string, path: string, body?: unknown) => earshot.rest(method, path, { key: apiKey, body });

async function newKeyword(term: string, body: Record<string, unknown> = {}): Promise<{ id: string; term: string }> {
  const created = await api('POST', '/v1/keywords', { term, ...body });
  expect(created.status).toBe(201);
  return { id: created.body.id, term: created.body.term };
}

let sequence = 0;
const hackerNewsPost = (text: string, handle = `dev${++sequence}`): NormalizedPost => ({
  platform: 'hackernews',
  externalId: `browser-${++sequence}-${Date.now()}`,
  url: `https://news.ycombinator.com/item?id=${sequence}`,
  text,
  publishedAt: new Date(),
  replyTo: null,
  links: [],
  author: { platformId: handle, name: handle, handle, url: `https://news.ycombinator.com/user?id=${handle}`, avatarUrl: null, followers: 120 },
});

/** Stores a matched post and scores it as the classifier would have; answers the mention id. */
async function scoredMention(keywordId: string, text: string, relevance: number, sentiment: Sentiment = 'neutral'): Promise<string> {
  const [mention] = await storeMatchedPost(earshot.sql, hackerNewsPost(text), [{ keywordId, workspaceId: workspace.id, fuzzy: false }]);
  await saveClassification(earshot.sql, mention.id, { relevance, sentiment, intents: [], automated: false, language: 'en', note: '', priority: relevance / 100 }, new Date());
  return mention.id;
}

describe('sign-in', { timeout: 60_000 }, () => {
  it('signs in with a password, switches workspace, and signs out', async () => {
    const page = await browser.newPage();
    await page.goto(`${earshot.url}/keywords`);
    await page.waitForURL(/\/sign-in\?next=%2Fkeywords$/);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong e-mail address or password');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    const switcher = page.getByLabel('Workspace');
    await expect.poll(() => switcher.inputValue()).toBe(workspace.id);
    await expect.poll(() => switcher.locator('option').allTextContents()).toEqual(['Acme', 'Side project']);

    // A switch reloads the page: each waits for the new document, so that the sign-out below is not clicked on the old one while the reload is under way.
    await Promise.all([page.waitForEvent('load'), switcher.selectOption({ label: 'Side project' })]);
    await page.waitForURL(/\/inbox$/);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Workspace').locator('option:checked').textContent()).toBe('Side project');
    await Promise.all([page.waitForEvent('load'), page.getByLabel('Workspace').selectOption({ label: 'Acme' })]);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Workspace').locator('option:checked').textContent()).toBe('Acme');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const whoami = await page.evaluate(async () => (await fetch('/v1/whoami')).status);
    expect(whoami).toBe(401);
    await page.close();
  });

  it('signs in with an e-mailed link, which works once', async () => {
    const page = await browser.newPage();
    await page.context().clearCookies();
    await page.goto(`${earshot.url}/sign-in`);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    const [mail] = await eventually(async () => smtp.messages.filter((message) => message.to.includes('ada@example.com')), (found) => found.length > 0);
    const link = new URL(/https?:\/\/\S+\/sign-in\/link\?token=\S+/.exec(mail.text ?? '')![0]);

    await page.goto(`${earshot.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(await page.getByText('ada@example.com').count()).toBeGreaterThan(0);

    await page.context().clearCookies();
    await page.goto(`${earshot.url}${link.pathname}${link.search}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid, used or expired');
    await page.close();
  });

  it('says so when the session ends mid-use, and returns to the page after signing in again', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Keywords' }).click();
    await page.getByRole('region', { name: 'Groups', exact: true }).waitFor();
    // The session ends under the open page, as at its expiry or a sign-out in another browser.
    await earshot.sql`delete from sessions where user_id = ${owner.id}`;
    await page.getByLabel('Term', { exact: true }).fill('after the session');
    await page.getByRole('button', { name: 'Add keyword' }).click();

    await page.waitForURL(/\/sign-in\?next=%2Fkeywords$/);
    expect(await page.getByRole('status').textContent()).toBe('Your session has ended. Sign in again to go on where you were.');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.close();
  });
});

describe('inbox', () => {
  it('shows a new mention the moment it is stored, without a reload', async () => {
    const keyword = await newKeyword('live feed');
    const page = await signedInPage();
    await page.getByText('No mentions match these filters').waitFor();
    const cards = page.locator('article.mention');
    const stored = await storeUntilDelivered(
      async () => (await cards.count()) > 0,
      (attempt) => newMention(earshot, workspace.id, keyword, `Heard live on the wire, take ${attempt}`),
    );
    const first = cards.first();
    expect(stored.map((mention) => `Heard live on the wire, take ${stored.indexOf(mention)}`)).toContain(await first.locator('.mention-text').textContent());
    expect(await first.getByText('New', { exact: true }).count()).toBe(1);
    expect(await first.getByText('Scoring…').count()).toBe(1);
    expect(await first.locator('.keyword-chip').textContent()).toBe('live feed');
    await page.close();
  });

  it('shows the score of a mention that arrived unscored as it comes over the live connection, and a teammate\'s triage, without reading mentions one by one', async () => {
    const keyword = await newKeyword('scored live');
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const readsOfOne: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && /query InboxMention\b/.test(request.postData() ?? '')) readsOfOne.push(request.url());
    });
    const cards = page.locator('article.mention');
    // The last one stored is the one delivered (those before it went out before the subscription was live).
    const mention = (await storeUntilDelivered(
      async () => (await cards.count()) > 0,
      (attempt) => newMention(earshot, workspace.id, keyword, `Scored over the wire, take ${attempt}`),
    )).at(-1)!;
    const card = page.locator(`#mention-${mention.id}`);
    await card.getByText('Scoring…').waitFor();
    await saveClassification(earshot.sql, mention.id, { relevance: 88, sentiment: 'positive', intents: [], automated: false, language: 'en', note: '', priority: 0.88 }, new Date());
    await announceMentionsUpdated(earshot.sql, [mention]);
    await card.getByText('Relevance 88').waitFor({ timeout: 5_000 });
    expect(await card.getByText('Scoring…').count()).toBe(0);

    // A teammate marks it done elsewhere: it leaves the open view here.
    expect((await api('PATCH', `/v1/mentions/${mention.id}`, { status: 'done' })).status).toBe(200);
    await card.waitFor({ state: 'detached', timeout: 5_000 });
    expect(readsOfOne).toEqual([]);
    await page.close();
  });

  it("puts mentions that arrive live together in the list's order, newest post first, whatever order they are announced in", async () => {
    const keyword = await newKeyword('one poll');
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const cards = page.locator('article.mention');
    await storeUntilDelivered(
      async () => (await cards.count()) > 0,
      (attempt) => newMention(earshot, workspace.id, keyword, `An earlier poll, take ${attempt}`),
    );
    const before = await cards.count();
    // One poll stores its posts together (one match time, ids in publication order) and announces them at once.
    const minute = 60_000;
    const posts = ['Posted three minutes ago', 'Posted two minutes ago', 'Posted a minute ago'].map((text, at) => ({
      post: { ...hackerNewsPost(`${text} about one poll`), publishedAt: new Date(Date.now() - (3 - at) * minute) },
      matches: [{ keywordId: keyword.id, workspaceId: workspace.id, fuzzy: false }],
    }));
    const stored = await storeMatchedPosts(earshot.sql, posts);
    await announceMentionsCreated(earshot.sql, [...stored].reverse());
    await expect.poll(() => cards.count()).toBe(before + 3);
    const shown = (await cards.locator('.mention-text').allTextContents()).slice(0, 3);
    expect(shown).toEqual(['Posted a minute ago about one poll', 'Posted two minutes ago about one poll', 'Posted three minutes ago about one poll']);
    await page.close();
  });

  it('tells a workspace that tracks no keyword yet to add one, linking to the Keywords page', async () => {
    await provisionWorkspace(earshot.sql, 'First day', { ownerEmail: 'newcomer@example.com' });
    await setUserPassword(earshot.sql, 'newcomer@example.com', password);
    const page = await browser.newPage();
    await page.context().clearCookies();
    await signInWithPassword(page, earshot.url, 'newcomer@example.com', password);
    await page.getByText('No keywords are tracked yet.').waitFor();
    expect(await page.getByText('No mentions match these filters').count()).toBe(0);
    await page.getByRole('link', { name: 'Add your first keyword' }).click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.close();
  });

  it('loads the next page of mentions on request and gives the keyboard to the first one loaded', async () => {
    const keyword = await newKeyword('long list');
    const ids: string[] = [];
    for (let n = 1; n <= 52; n++) ids.push(await scoredMention(keyword.id, `Long list post ${n}`, 70));
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const cards = page.locator('article.mention');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(52);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // Newest first: the page after the first 50 holds the two stored first; the keyboard is on the newer of them.
    expect(await cards.locator('.mention-text').allTextContents()).toEqual(ids.map((_, at) => `Long list post ${52 - at}`));
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`mention-${ids[1]}`);
    await page.close();
    // Its mentions go with it, so that the workspace's counts the other tests read stay as they were.
    expect((await api('DELETE', `/v1/keywords/${keyword.id}`)).status).toBeLessThan(300);
  });

  it('reads the list again when the live connection comes back, so a mention stored while it was down shows', async () => {
    const keyword = await newKeyword('dropped wire');
    const page = await browser.newPage();
    await page.context().clearCookies();
    // Every live connection goes through the test, which can drop it as a restart or a lost network would.
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/graphql$/, (socket) => {
      socket.connectToServer();
      sockets.push(socket);
    });
    await signInWithPassword(page, earshot.url, 'ada@example.com', password);
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const cards = page.locator('article.mention');
    await storeUntilDelivered(
      async () => (await cards.count()) > 0,
      (attempt) => newMention(earshot, workspace.id, keyword, `Before the drop, take ${attempt}`),
    );
    const opened = sockets.length;

    await sockets.at(-1)!.close({ code: 1012, reason: 'service restart' });
    const missed = await scoredMention(keyword.id, 'Stored while the connection was down', 80);
    await expect.poll(() => sockets.length, { timeout: 15_000 }).toBe(opened + 1);
    // The list read again is the server's: the scored mention missed meanwhile is in it.
    await page.locator(`#mention-${missed}`).waitFor({ timeout: 10_000 });
    expect(await page.locator(`#mention-${missed} .mention-text`).textContent()).toBe('Stored while the connection was down');
    await page.close();
  });

  it('triages with keyboard shortcuts and buttons, keeps the filters in the URL, and acts on a selection', async () => {
    const keyword = await newKeyword('triage target');
    const first = await scoredMention(keyword.id, 'Triage target first post', 80);
    const second = await scoredMention(keyword.id, 'Triage target second post', 70);
    const third = await scoredMention(keyword.id, 'Triage target third post', 60);
    const fourth = await scoredMention(keyword.id, 'Triage target fourth post', 50);
    const page = await signedInPage();
    await page.getByLabel('Keyword').selectOption({ label: 'triage target' });
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${keyword.id}$`));
    await page.getByLabel('Sort').selectOption('priority');
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${keyword.id}&sort=priority$`));
    const texts = () => page.locator('article.mention .mention-text').allTextContents();
    await expect.poll(texts).toEqual(['Triage target first post', 'Triage target second post', 'Triage target third post', 'Triage target fourth post']);

    // j focuses the first mention, d marks it done: it leaves the open view.
    await page.keyboard.press('j');
    await page.keyboard.press('d');
    await expect.poll(texts).toEqual(['Triage target second post', 'Triage target third post', 'Triage target fourth post']);
    expect((await api('GET', `/v1/mentions/${first}`)).body.status).toBe('done');

    // 3: sentiment corrected to negative, on the mention the keyboard moved to; n: not relevant, which takes it out of
    // the relevant view at once, as the server's list would, and hands the keyboard to the next one.
    await page.keyboard.press('3');
    await expect.poll(async () => (await api('GET', `/v1/mentions/${second}`)).body.classification?.feedback?.sentiment).toBe('negative');
    await page.keyboard.press('n');
    await expect.poll(texts).toEqual(['Triage target third post', 'Triage target fourth post']);
    expect((await api('GET', `/v1/mentions/${second}`)).body.classification?.feedback).toMatchObject({ relevant: false, sentiment: 'negative' });
    await expect.poll(() => page.locator('article.mention.current .mention-text').textContent()).toBe('Triage target third post');

    // Buttons do the same: Relevant on the third.
    await page.locator(`#mention-${third}`).getByRole('button', { name: 'Relevant', exact: true }).click();
    await expect.poll(async () => (await api('GET', `/v1/mentions/${third}`)).body.classification?.feedback?.relevant).toBe(true);

    // The view comes back from its URL on a reload, the verdict written through; a selection is ignored at once.
    await page.reload();
    await expect.poll(texts).toEqual(['Triage target third post', 'Triage target fourth post']);
    await page.getByLabel('Select all').check();
    await page.getByRole('toolbar', { name: 'Selected mentions' }).getByRole('button', { name: 'Ignore' }).click();
    await page.getByText('No mentions match these filters').waitFor();
    for (const id of [third, fourth]) expect((await api('GET', `/v1/mentions/${id}`)).body.status).toBe('ignored');
    expect((await api('GET', `/v1/mentions/${second}`)).body.status).toBe('open');

    await page.getByLabel('Status').selectOption('done');
    await expect.poll(texts).toEqual(['Triage target first post']);
    expect(page.url()).toBe(`${earshot.url}/inbox?keywords=${keyword.id}&status=done&sort=priority`);
    await page.close();
  });
  it('saves the filters as a view, applies a saved view from the selector, updates, renames and deletes it', async () => {
    const kept = await newKeyword('viewed keyword');
    const other = await newKeyword('other keyword');
    await scoredMention(kept.id, 'Viewed keyword low', 60);
    await scoredMention(kept.id, 'Viewed keyword high', 90);
    await scoredMention(other.id, 'Other keyword post about pelicans', 80);
    // A view made through the API, with a filter the bar does not show and no status (every status).
    const pelicans = await api('POST', '/v1/views', { name: 'Pelicans', filter: { q: 'pelicans', minRelevance: 50 } });
    expect(pelicans.status).toBe(201);
    const page = await signedInPage();
    const texts = () => page.locator('article.mention .mention-text').allTextContents();

    await page.getByLabel('Keyword').selectOption({ label: 'viewed keyword' });
    await page.getByLabel('Sort').selectOption('priority');
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${kept.id}&sort=priority$`));
    // The name field takes the keyboard as it opens, and the view selector takes it back once the view is saved.
    await page.getByRole('button', { name: 'Save as a new view' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await page.getByLabel('Name of the new view').getAttribute('id'));
    await page.keyboard.type('Viewed, by priority');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await api('GET', '/v1/views')).body.data.map((view: { name: string }) => view.name)).toEqual(['Pelicans', 'Viewed, by priority']);
    const saved = (await api('GET', '/v1/views')).body.data[1];
    expect(saved).toMatchObject({ sort: 'priority', filter: { keywordIds: [kept.id], status: 'open', relevant: true, snoozed: false } });
    await page.waitForURL(new RegExp(`/inbox\\?view=${saved.id}&keywords=${kept.id}&sort=priority$`));
    await expect.poll(() => page.getByLabel('Saved view').locator('option:checked').textContent()).toBe('Viewed, by priority');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await page.getByLabel('Saved view').getAttribute('id'));

    // The API's view: its filters go into the URL, the hidden ones shown under "More filters".
    await page.getByLabel('Saved view').selectOption({ label: 'Pelicans' });
    await page.waitForURL(new RegExp(`/inbox\\?view=${pelicans.body.id}&status=all&q=pelicans&minRelevance=50$`));
    await expect.poll(texts).toEqual(['Other keyword post about pelicans']);
    await expect.poll(() => page.getByLabel('Search').inputValue()).toBe('pelicans');
    await expect.poll(() => page.getByLabel('Relevance at least').inputValue()).toBe('50');
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('all');

    // Back to the first view from the selector; a changed filter can be saved into it.
    await page.getByLabel('Saved view').selectOption({ label: 'Viewed, by priority' });
    await expect.poll(texts).toEqual(['Viewed keyword high', 'Viewed keyword low']);
    await page.getByLabel('Status').selectOption('all');
    await page.getByText('Filters changed since the view was chosen').waitFor();
    await page.getByRole('button', { name: 'Save changes to Viewed, by priority' }).click();
    await expect.poll(async () => (await api('GET', `/v1/views/${saved.id}`)).body.filter.status ?? null).toBeNull();
    await expect.poll(() => page.getByText('Filters changed since the view was chosen').count()).toBe(0);

    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name for Viewed, by priority').fill('Everything viewed');
    await page.getByRole('button', { name: 'Rename the view' }).click();
    await expect.poll(async () => (await api('GET', `/v1/views/${saved.id}`)).body.name).toBe('Everything viewed');
    await expect.poll(() => page.getByLabel('Saved view').locator('option:checked').textContent()).toBe('Everything viewed');

    // Deleting the view keeps its filters on screen, no longer named.
    await page.getByRole('button', { name: 'Delete the view Everything viewed' }).click();
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${kept.id}&status=all&sort=priority$`));
    expect((await api('GET', '/v1/views')).body.data.map((view: { name: string }) => view.name)).toEqual(['Pelicans']);
    await expect.poll(() => page.getByLabel('Saved view').inputValue()).toBe('');
    await api('DELETE', `/v1/views/${pelicans.body.id}`);
    await page.close();
  });

  it('snoozes and assigns from the keyboard and for a selection, as the server filters them', async () => {
    const keyword = await newKeyword('snooze target');
    const first = await scoredMention(keyword.id, 'Snooze target first', 90);
    const second = await scoredMention(keyword.id, 'Snooze target second', 80);
    const third = await scoredMention(keyword.id, 'Snooze target third', 70);
    const fourth = await scoredMention(keyword.id, 'Snooze target fourth', 60);
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}&sort=priority`);
    const texts = () => page.locator('article.mention .mention-text').allTextContents();
    await expect.poll(texts).toEqual(['Snooze target first', 'Snooze target second', 'Snooze target third', 'Snooze target fourth']);

    // s on the first: a picker; a snoozed mention leaves the awake list, the keyboard moves on.
    await page.keyboard.press('j');
    await page.keyboard.press('s');
    const snoozePicker = page.getByRole('dialog', { name: 'Snooze the mention by' });
    await snoozePicker.waitFor();
    expect(await snoozePicker.getByRole('button').allTextContents()).toEqual(['For an hour', 'For four hours', 'Until tomorrow 9:00', 'Until Monday 9:00', 'Wake it now', 'Cancel']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(texts).toEqual(['Snooze target second', 'Snooze target third', 'Snooze target fourth']);
    const snoozedUntil = Date.parse((await api('GET', `/v1/mentions/${first}`)).body.triage.snoozedUntil);
    expect(snoozedUntil - Date.now()).toBeGreaterThan(3.5 * 3_600_000);
    expect(snoozedUntil - Date.now()).toBeLessThanOrEqual(4 * 3_600_000);

    // a on the mention the keyboard moved to: a member picker; the card then names the assignee.
    await page.keyboard.press('a');
    const assignPicker = page.getByRole('dialog', { name: 'Assign the mention by' });
    await assignPicker.waitFor();
    expect(await assignPicker.getByRole('button').allTextContents()).toEqual([owner.name, 'Nobody', 'Cancel']);
    await page.keyboard.press('Enter');
    await page.locator(`#mention-${second}`).getByText(`Assigned to ${owner.name}`).waitFor();
    expect((await api('GET', `/v1/mentions/${second}`)).body.triage.assignee).toBe(owner.id);
    // Escape closes a picker without a change.
    await page.keyboard.press('s');
    await snoozePicker.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => snoozePicker.count()).toBe(0);
    expect((await api('GET', `/v1/mentions/${second}`)).body.triage.snoozedUntil).toBeNull();

    // The assignee filter shows the assigned one only; the snoozed filter the snoozed one, which wakes from there.
    await page.getByLabel('Assignee').selectOption({ label: owner.name });
    await page.waitForURL(new RegExp(`assigneeId=${owner.id}`));
    await expect.poll(texts).toEqual(['Snooze target second']);
    await page.getByLabel('Assignee').selectOption('');
    await page.getByLabel('Snoozed').selectOption('true');
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${keyword.id}&snoozed=true&sort=priority$`));
    await expect.poll(texts).toEqual(['Snooze target first']);
    await page.locator(`#mention-${first}`).getByRole('button', { name: 'Snooze…' }).click();
    await snoozePicker.getByRole('button', { name: 'Wake it now' }).click();
    await page.getByText('No mentions match these filters').waitFor();
    expect((await api('GET', `/v1/mentions/${first}`)).body.triage.snoozedUntil).toBeNull();

    // A selection is assigned and snoozed in one request each.
    await page.getByLabel('Snoozed').selectOption('false');
    await expect.poll(texts).toEqual(['Snooze target first', 'Snooze target second', 'Snooze target third', 'Snooze target fourth']);
    await page.getByLabel('Select the mention by', { exact: false }).nth(2).check();
    await page.getByLabel('Select the mention by', { exact: false }).nth(3).check();
    const toolbar = page.getByRole('toolbar', { name: 'Selected mentions' });
    await toolbar.getByRole('button', { name: 'Assign…' }).click();
    await page.getByRole('dialog', { name: 'Assign 2 mentions to' }).getByRole('button', { name: owner.name }).click();
    await expect.poll(async () => [(await api('GET', `/v1/mentions/${third}`)).body.triage.assignee, (await api('GET', `/v1/mentions/${fourth}`)).body.triage.assignee]).toEqual([owner.id, owner.id]);
    await toolbar.getByRole('button', { name: 'Snooze…' }).click();
    await page.getByRole('dialog', { name: 'Snooze 2 mentions' }).getByRole('button', { name: 'Until tomorrow 9:00' }).click();
    await expect.poll(texts).toEqual(['Snooze target first', 'Snooze target second']);
    for (const id of [third, fourth]) expect(Date.parse((await api('GET', `/v1/mentions/${id}`)).body.triage.snoozedUntil)).toBeGreaterThan(Date.now());
    await page.close();
  });
  it('keeps "how long ago" current as time passes, without reading the list again', async () => {
    const keyword = await newKeyword('ticking clock');
    const mention = await scoredMention(keyword.id, 'Ticking clock post', 80);
    // A browser of its own: the clock moved here is its context's, every page's in it.
    const ticking = await openBrowser();
    try {
      const page = await ticking.newPage();
      await page.clock.install();
      await signInWithPassword(page, earshot.url, 'ada@example.com', password);
      await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
      const when = page.locator(`#mention-${mention} .mention-meta time`);
      await expect.poll(() => when.textContent()).toBe('just now');
      const reads: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/graphql')) reads.push(request.postData() ?? '');
      });
      await page.clock.fastForward('05:00');
      await expect.poll(() => when.textContent()).toBe('5 minutes ago');
      await page.clock.fastForward('01:00');
      await expect.poll(() => when.textContent()).toBe('6 minutes ago');
      expect(reads).toEqual([]);
    } finally {
      await ticking.close();
    }
  });

  it('filters by publication day with date pickers, sending the day as the list takes it', async () => {
    const keyword = await newKeyword('dated posts');
    const store = async (text: string, daysAgo: number) => {
      const [mention] = await storeMatchedPost(earshot.sql, { ...hackerNewsPost(text), publishedAt: new Date(Date.now() - daysAgo * 86_400_000) }, [{ keywordId: keyword.id, workspaceId: workspace.id, fuzzy: false }]);
      await saveClassification(earshot.sql, mention.id, { relevance: 80, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0.8 }, new Date());
    };
    await store('Dated post of last week', 7);
    await store('Dated post of today', 0);
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const texts = () => page.locator('article.mention .mention-text').allTextContents();
    await expect.poll(texts).toEqual(['Dated post of today', 'Dated post of last week']);
    await page.getByText('More filters').click();
    const until = page.getByLabel('Published until');
    expect(await until.getAttribute('type')).toBe('date');
    expect(await page.getByLabel('Published since').getAttribute('type')).toBe('date');
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    await until.fill(threeDaysAgo);
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${keyword.id}&until=${threeDaysAgo}$`));
    await expect.poll(texts).toEqual(['Dated post of last week']);
    // A bookmark holding a time keeps it, in a text field that can show it.
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}&since=${threeDaysAgo}T12:00:00Z`);
    await expect.poll(texts).toEqual(['Dated post of today']);
    expect(await page.getByLabel('Published since').inputValue()).toBe(`${threeDaysAgo}T12:00:00Z`);
    await page.close();
  });

  it("shows a mention's thread comments, newest first, when the thread is opened", async () => {
    const keyword = await newKeyword('threaded');
    const mentionId = await scoredMention(keyword.id, 'Threaded post with replies', 90);
    const quiet = await scoredMention(keyword.id, 'Threaded post nobody answered', 80);
    const older = { ...hackerNewsPost('First reply in the thread', 'replier1'), publishedAt: new Date(Date.now() - 3_600_000) };
    const newer = { ...hackerNewsPost('Second reply, newer', 'replier2'), publishedAt: new Date(Date.now() - 60_000) };
    for (const comment of [older, newer]) expect(await storeComment(earshot.sql, mentionId, comment, true)).toBeTruthy();
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const card = page.locator(`#mention-${mentionId}`);
    await card.getByText('Comments in the thread').click();
    const thread = card.getByRole('list', { name: 'Comments, newest first' });
    await thread.waitFor();
    expect(await thread.locator('li').evaluateAll((items) => items.map((item) => item.lastElementChild?.textContent))).toEqual(['Second reply, newer', 'First reply in the thread']);
    expect(await thread.getByRole('link', { name: 'replier2' }).getAttribute('href')).toBe('https://news.ycombinator.com/user?id=replier2');
    const quietCard = page.locator(`#mention-${quiet}`);
    await quietCard.getByText('Comments in the thread').click();
    await quietCard.getByText('No comments read in this thread yet', { exact: false }).waitFor();

    // A typed filter counts once typed out (Enter), not at every key.
    await page.getByLabel('Search').fill('nobody answered');
    expect(new URL(page.url()).searchParams.get('q')).toBeNull();
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(new RegExp(`/inbox\\?keywords=${keyword.id}&q=nobody\\+answered$`));
    await expect.poll(() => page.locator('article.mention .mention-text').allTextContents()).toEqual(['Threaded post nobody answered']);
    await page.close();
  });

  it("shows a mention's note, as a chat alert's Interacted button leaves it, and writes and clears it", async () => {
    const keyword = await newKeyword('noted thing');
    const mention = await scoredMention(keyword.id, 'Noted thing post worth a word', 80);
    expect((await api('PATCH', `/v1/mentions/${mention}`, { note: 'Interacted by @dana in Slack' })).status).toBe(200);
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const card = page.locator(`#mention-${mention}`);
    await expect.poll(() => card.locator('.mention-note').textContent()).toBe('Note: Interacted by @dana in Slack');

    await card.getByText('Edit the note').click();
    await card.getByLabel('Note on this mention').fill('Interacted by @dana in Slack\nAnswered: pricing page sent.');
    await card.getByRole('button', { name: 'Save the note' }).click();
    await expect.poll(async () => (await api('GET', `/v1/mentions/${mention}`)).body.triage.note).toBe('Interacted by @dana in Slack\nAnswered: pricing page sent.');
    await expect.poll(() => card.locator('.mention-note').textContent()).toBe('Note: Interacted by @dana in Slack\nAnswered: pricing page sent.');

    await card.getByLabel('Note on this mention').fill('');
    await card.getByRole('button', { name: 'Save the note' }).click();
    await expect.poll(async () => (await api('GET', `/v1/mentions/${mention}`)).body.triage.note).toBeNull();
    await expect.poll(() => card.locator('.mention-note').count()).toBe(0);
    await page.close();
  });
});

describe('keywords', () => {
  it('edits settings of a keyword and sends only what changed', async () => {
    const keyword = await newKeyword('editable', { platforms: ['hackernews', 'reddit'] });
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Keywords' }).click();
    await page.getByRole('link', { name: 'editable' }).click();
    await page.getByRole('heading', { name: 'editable', level: 1 }).waitFor();
    await page.getByLabel('Context for the classifier').fill('The editable text component, not the adjective.');
    await page.getByLabel('Excluded terms').fill('hiring\njob offer');
    await page.getByLabel('Cap the charged mentions').check();
    await page.getByLabel('Mentions per period').fill('500');
    await page.getByLabel('Period (UTC)').selectOption('week');
    await page.getByRole('button', { name: 'Save 3 changes' }).click();
    await page.getByText('Saved.').waitFor();

    const saved = (await api('GET', `/v1/keywords/${keyword.id}`)).body;
    expect(saved.context).toBe('The editable text component, not the adjective.');
    expect(saved.matching.excludedTerms).toEqual(['hiring', 'job offer']);
    // On the welcome credit the cap written is the user's own, applied from the first top-up (spec 2.1.1).
    expect(saved.cap).toMatchObject({ welcome: true, own: 500, ownPer: 'week' });
    expect(saved.platforms).toEqual(['hackernews', 'reddit']);
    // The button says there is nothing more to save, and keeps the keyboard it had.
    const noChanges = page.getByRole('button', { name: 'No changes' });
    expect(await noChanges.getAttribute('aria-disabled')).toBe('true');
    expect(await noChanges.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.close();
  });

  it("shows on a keyword's page the platform whose last poll failed, with the error and when", async () => {
    const keyword = await newKeyword('polled', { platforms: ['hackernews', 'reddit'] });
    const failedAt = new Date(Date.now() - 2 * 3_600_000);
    await recordPollError(earshot.sql, { platform: 'reddit', keywordIds: [keyword.id], error: 'Reddit answered 403: blocked', now: failedAt });
    const page = await signedInPage();
    await page.goto(`${earshot.url}/keywords/${keyword.id}`);
    const polling = page.getByRole('region', { name: 'Polling' });
    await polling.getByRole('status').filter({ hasText: 'The last poll of Reddit failed' }).waitFor();
    const reddit = polling.getByRole('row', { name: /^Reddit/ });
    expect(await reddit.locator('td').last().textContent()).toContain('Reddit answered 403: blocked');
    expect(await reddit.locator('td time').last().getAttribute('datetime')).toBe(failedAt.toISOString());
    expect(await reddit.locator('td').last().textContent()).toContain('2 hours ago');
    expect(await polling.getByRole('row', { name: /^Hacker News/ }).locator('td').last().textContent()).toBe('—');
    await page.close();
  });

  it('applies a suggestion in one click after showing its measured effect', async () => {
    const keyword = await newKeyword('Gizmo');
    for (let n = 0; n < 10; n++) await scoredMention(keyword.id, `Gizmo giveaway number ${n} lorem${n}`, 10);
    await scoredMention(keyword.id, 'Gizmo giveaway for open source maintainers', 85);
    for (let n = 0; n < 5; n++) await scoredMention(keyword.id, `Gizmo shipped release ipsum${n}`, 85);
    const page = await signedInPage();
    await page.goto(`${earshot.url}/keywords/${keyword.id}`);
    const suggestion = page.getByRole('article').filter({ hasText: 'Exclude terms: giveaway' });
    await suggestion.waitFor();
    expect(await suggestion.locator('.effect').textContent()).toBe(
      'Removes 10 noisy matches and 1 relevant (noise 63% → 0%), saving $0.08 over the last 30 days (measured on every scored match).',
    );
    await suggestion.getByRole('button', { name: 'Apply: exclude terms giveaway' }).click();
    await page.getByText('Applied: giveaway.').waitFor();
    expect((await api('GET', `/v1/keywords/${keyword.id}`)).body.matching.excludedTerms).toEqual(['giveaway']);
    await page.close();
  });

  it("gives the focus to a keyword page's title once the keyword has loaded, as to every page's title after a navigation", async () => {
    await newKeyword('focus target');
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Keywords' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keywords');
    // The page first shows a loading title, then the keyword's own: the focus must follow it, not fall to the document.
    await page.getByRole('link', { name: 'focus target' }).click();
    await page.getByRole('heading', { name: 'focus target', level: 1 }).waitFor();
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`)).toBe('H1 focus target');
    await page.goBack();
    await page.goForward();
    await page.getByRole('heading', { name: 'focus target', level: 1 }).waitFor();
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`)).toBe('H1 focus target');
    await page.close();
  });

  it('lists and offers every keyword of a workspace that has more than a page of them', async () => {
    // In the second workspace, so that the other tests' keyword lists stay short; with no platform, none is polled.
    let last = '';
    for (let n = 1; n <= 101; n++) {
      const created = await earshot.rest('POST', '/v1/keywords', { key: sideApiKey, body: { term: `side keyword ${n}`, platforms: [] } });
      expect(created.status).toBe(201);
      last = created.body.id;
    }
    const page = await signedInPage();
    await Promise.all([page.waitForEvent('load'), page.getByLabel('Workspace').selectOption({ label: 'Side project' })]);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Keywords' }).click();
    const rows = page.getByRole('table', { name: 'Keywords', exact: true }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(100);
    await page.getByRole('button', { name: 'Show more keywords' }).click();
    await expect.poll(() => rows.count()).toBe(101);
    const terms = await page.getByRole('table', { name: 'Keywords', exact: true }).locator('tbody th a').allTextContents();
    expect(new Set(terms).size).toBe(101);
    expect(await page.getByRole('button', { name: 'Show more keywords' }).count()).toBe(0);

    // The inbox's keyword filter and an alert rule's keywords offer the 101st too.
    await page.goto(`${earshot.url}/inbox?keywords=${last}`);
    const filter = page.getByRole('combobox', { name: 'Keyword', exact: true });
    await expect.poll(() => filter.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('side keyword 101');
    expect(await filter.locator('option').count()).toBe(102);
    await page.getByRole('link', { name: 'Alerts & channels' }).click();
    await page.getByRole('group', { name: 'Only these keywords (none: all)' }).getByLabel('side keyword 101', { exact: true }).waitFor();
    await page.close();
  });

  it('adds, renames and deletes a group, shows a duplicate name refused, and offers the group to keywords', async () => {
    const keyword = await newKeyword('grouped gadget');
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Keywords' }).click();
    const groups = page.getByRole('region', { name: 'Groups', exact: true });
    await groups.getByLabel('Group name').fill('Rivals');
    await groups.getByLabel('Description', { exact: true }).fill('Products that compete with ours.');
    await groups.getByRole('button', { name: 'Add group' }).click();
    await groups.getByRole('rowheader', { name: 'Rivals' }).waitFor();
    await groups.getByLabel('Group name').fill('rivals');
    await groups.getByRole('button', { name: 'Add group' }).click();
    // The API's message in words; its code is for programs, kept out of the text.
    await expect.poll(() => groups.getByRole('alert').textContent()).toBe('A group named "rivals" already exists');
    expect(await groups.getByRole('alert').getAttribute('data-code')).toBe('duplicate_group');

    await groups.getByRole('button', { name: 'Edit Rivals' }).click();
    await groups.getByLabel('New name').fill('Competitors');
    await groups.getByLabel('Group description').fill('');
    await groups.getByRole('button', { name: 'Save group' }).click();
    await groups.getByRole('rowheader', { name: 'Competitors' }).waitFor();
    const group = (await api('GET', '/v1/groups')).body.data.find((item: { name: string }) => item.name === 'Competitors');
    expect(group).toMatchObject({ description: null, isDefault: false });

    // The new group is offered where a keyword picks its group.
    await page.getByRole('link', { name: 'grouped gadget' }).click();
    await page.getByRole('combobox', { name: 'Group' }).selectOption({ label: 'Competitors' });
    await page.getByRole('button', { name: 'Save 1 change' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await api('GET', `/v1/keywords/${keyword.id}`)).body.group.id).toBe(group.id);

    // Deleting the group moves its keyword to the default group.
    await page.getByRole('link', { name: 'Keywords' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await groups.getByRole('button', { name: 'Delete Competitors' }).click();
    await groups.getByRole('rowheader', { name: 'Competitors' }).waitFor({ state: 'detached' });
    expect((await api('GET', `/v1/keywords/${keyword.id}`)).body.group.isDefault).toBe(true);
    await page.close();
  });
});

describe('wallet', () => {
  it('asks for a top-up of dollars and cents, as any amount from $20 to $5,000 may be (spec 8)', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Wallet & usage' }).click();
    await page.getByLabel('Amount in dollars').fill('20.50');
    const [request] = await Promise.all([
      page.waitForRequest((sent) => sent.url().endsWith('/graphql') && (sent.postData() ?? '').includes('startTopUp')),
      page.getByRole('button', { name: 'Top up with Stripe' }).click(),
    ]);
    expect(request.postDataJSON().variables).toEqual({ input: { amountCents: 2050 } });
    // This Earshot has no payment provider: the answer says so in the page, in words, without the code.
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('No payment provider is configured on this install');
    expect(await page.getByRole('alert').textContent()).not.toContain('billing_not_configured');
    // A failure with no message of the API's says a plain sentence for its code.
    await page.route('**/graphql', (route) => route.abort());
    await page.getByRole('button', { name: 'Top up with Stripe' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Earshot could not be reached. Check the connection and try again.');
    await page.close();
  });
});

describe('people and analytics', () => {
  it("shows a mention's author as a person: logs a contact, which claims them, then changes the stage and the owner", async () => {
    const keyword = await newKeyword('outreach target');
    const mentionId = await scoredMention(keyword.id, 'Outreach target post', 90);
    const personId = (await earshot.graphql('query ($id: ID!) { mention(id: $id) { person { id } } }', { id: mentionId }, apiKey)).body.data.mention.person.id;
    const person = async () => (await api('GET', `/v1/people/${personId}`)).body;
    const page = await signedInPage();
    await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
    const card = page.locator(`#mention-${mentionId}`);
    await card.getByText(/^Outreach with .+: Not contacted$/).click();
    await card.getByText('No contact logged yet.').waitFor();

    // The first contact a member logs claims the unowned person for them and moves it to contacted (spec 3.5.2).
    await card.getByLabel('Channel').selectOption('linkedin');
    await card.getByLabel('Note', { exact: true }).fill('Said hello on LinkedIn');
    await card.getByRole('button', { name: 'Log contact' }).click();
    await card.getByText('Said hello on LinkedIn').waitFor();
    await expect.poll(() => card.getByLabel('Outreach stage').inputValue()).toBe('contacted');
    await expect.poll(() => card.getByLabel('Owner').inputValue()).toBe(owner.id);
    expect(await card.locator('.activity-log li').first().textContent()).toContain(`LinkedIn · ${owner.name}`);
    expect((await api('GET', `/v1/people/${personId}/activities`)).body.data).toEqual([
      expect.objectContaining({ channel: 'linkedin', note: 'Said hello on LinkedIn', madeBy: { userId: owner.id, apiKeyId: null, apiKey: null } }),
    ]);
    expect((await person()).outreach).toMatchObject({ owner: owner.id, stage: 'contacted' });

    await card.getByLabel('Outreach stage').selectOption('replied');
    await expect.poll(async () => (await person()).outreach.stage).toBe('replied');
    await card.getByLabel('Owner').selectOption({ label: 'Nobody' });
    await expect.poll(async () => (await person()).outreach.owner).toBeNull();
    await page.close();
  });

  it('lists people on their page, filtered in the URL, with their outreach, which their card changes in place', async () => {
    const keyword = await newKeyword('people page');
    const personOf = async (handle: string) => {
      const [mention] = await storeMatchedPost(earshot.sql, hackerNewsPost(`People page post by ${handle}`, handle), [{ keywordId: keyword.id, workspaceId: workspace.id, fuzzy: false }]);
      await saveClassification(earshot.sql, mention.id, { relevance: 80, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0.8 }, new Date());
      return (await earshot.graphql('query ($id: ID!) { mention(id: $id) { person { id } } }', { id: mention.id }, apiKey)).body.data.mention.person.id as string;
    };
    const alice = await personOf('ppl_alice');
    const bob = await personOf('ppl_bob');
    // Alice has been written to and is ada's; bob is nobody's and not contacted.
    expect((await api('POST', `/v1/people/${alice}/activities`, { channel: 'email', note: 'Wrote to alice' })).status).toBeLessThan(300);
    expect((await api('PATCH', `/v1/people/${alice}`, { ownerId: owner.id, stage: 'contacted' })).status).toBe(200);

    const page = await signedInPage();
    await page.getByRole('link', { name: 'People', exact: true }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    const names = () => page.locator('article.mention h2').allTextContents();
    await page.getByLabel('Search').fill('ppl_');
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(/\/people\?q=ppl_$/);
    await expect.poll(names).toEqual(['ppl_bob', 'ppl_alice']);
    const aliceRow = page.locator(`#person-${alice}`);
    expect(await aliceRow.locator('.mention-meta').nth(1).textContent()).toMatch(new RegExp(`^1 mention, 1 relevant · last just now · Owned by ${owner.name} · last contact just now$`));

    await page.getByLabel('Outreach stage').selectOption('contacted');
    await page.waitForURL(/\/people\?q=ppl_&stage=contacted$/);
    await expect.poll(names).toEqual(['ppl_alice']);
    await page.getByLabel('Outreach stage').selectOption('');
    await page.getByLabel('Owner').selectOption({ label: 'Nobody' });
    await page.waitForURL(/\/people\?q=ppl_&owner=none$/);
    await expect.poll(names).toEqual(['ppl_bob']);

    // The person card opens in place; a stage chosen there shows on the row at once.
    const bobRow = page.locator(`#person-${bob}`);
    await bobRow.getByText('Outreach with ppl_bob: Not contacted').click();
    await bobRow.getByLabel('Outreach stage').selectOption('replied');
    await expect.poll(async () => (await api('GET', `/v1/people/${bob}`)).body.outreach.stage).toBe('replied');
    await expect.poll(() => bobRow.locator('.chip-status').textContent()).toBe('Replied');
    await bobRow.getByText('Outreach with ppl_bob: Replied').waitFor();

    await bobRow.getByRole('link', { name: 'Their relevant mentions by ppl_bob' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await expect.poll(() => page.locator('article.mention .mention-text').allTextContents()).toEqual(['People page post by ppl_bob']);
    await page.close();
  });

  it('counts mentions on the analytics page as the API does, the view kept in the URL', async () => {
    const keyword = await newKeyword('counted');
    for (const sentiment of ['positive', 'positive', 'negative'] as const) await scoredMention(keyword.id, `Counted ${sentiment}`, 90, sentiment);
    const page = await signedInPage();
    await page.goto(`${earshot.url}/analytics`);
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.getByLabel('Count by').selectOption('keyword');
    await page.waitForURL(/\/analytics\?by=keyword$/);
    await page.getByLabel('Per').selectOption('month');
    await page.waitForURL(/\/analytics\?by=keyword&bucket=month$/);
    await expect.poll(() => page.getByRole('img').getAttribute('aria-label')).toContain('counted 3');

    const counted = (await api('GET', '/v1/analytics?by=keyword&bucket=month')).body;
    await page.getByText('Show the figures').click();
    const table = page.getByRole('region', { name: 'Mentions by keyword per month' });
    expect(await table.locator('thead th').allTextContents()).toEqual(['Month (UTC)', ...counted.series.map((series: { keyword: { term: string } }) => series.keyword.term), 'Total']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
    expect(rows).toEqual(
      counted.totals.map((point: { start: string; count: number }, index: number) => [
        point.start.slice(0, 7),
        ...counted.series.map((series: { points: { count: number }[] }) => String(series.points[index].count)),
        String(point.count),
      ]),
    );
    await page.reload();
    await expect.poll(() => page.getByLabel('Count by').inputValue()).toBe('keyword');
    await page.close();
  });
});

describe('alerts and channels', () => {
  it('creates a webhook channel, shows its secret once, sends a test and logs the delivery', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Alerts & channels' }).click();
    await page.getByRole('heading', { name: 'Alerts & channels', level: 1 }).waitFor();
    await page.getByLabel('Label').fill('Ops hook');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/earshot`);
    await page.getByLabel('wallet.low').check();
    await page.getByRole('button', { name: 'Create channel' }).click();
    const secret = await page.getByLabel('Signing secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    // Disabled while it ran, the button takes the keyboard back, where it was left at the page's start.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Create channel');

    await page.getByRole('button', { name: 'Send a test to Ops hook' }).click();
    await page.getByText('Test delivered').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Send a test to Ops hook');
    // The test is a delivery: the channel's row counts it at once.
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Ops hook' }) });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual([expect.any(String), '1', 'just now', expect.stringContaining('Send a test')]);
    // The form starts blank for the next channel.
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe('');
    expect(await page.getByLabel('wallet.low').isChecked()).toBe(false);
    const [test] = receiver.bodies().filter((body) => body.event === 'test');
    expect(test).toMatchObject({ event: 'test', data: { message: expect.any(String) } });
    const channels = (await api('GET', '/v1/channels')).body.data;
    expect(channels).toEqual([expect.objectContaining({ label: 'Ops hook', kind: 'webhook', config: expect.objectContaining({ url: `${receiver.url}/earshot`, events: ['wallet.low'] }) })]);

    const rule = await api('POST', '/v1/alerts', { name: 'Ops only', channelIds: [channels[0].id], enabled: false });
    expect(rule.status).toBe(200);
    await page.getByRole('link', { name: 'Ops hook' }).click();
    const log = page.getByRole('table', { name: 'Deliveries, newest first' });
    await log.waitFor();
    // The chip says the status; nothing beside it repeats it, and counts of one read in the singular.
    const delivery = log.locator('tbody tr').first();
    expect(await delivery.locator('td').nth(3).textContent()).toBe('delivered');
    expect(await delivery.locator('summary').textContent()).toBe('1 attempt');
    await page.getByText('used by 1 rule (0 on)').waitFor();
    await page.close();
  });
  it("connects Slack through its OAuth page, lands on the dashboard's page, then sets Slack notifications and a Slack channel's settings", async () => {
    const page = await signedInPage();
    await sameServer(page);
    await page.goto(`${earshot.url}/alerts`);
    const section = page.getByRole('region', { name: 'Slack' });
    await section.getByText('Not connected').waitFor();
    await section.getByRole('button', { name: 'Connect Slack' }).click();
    // Slack's authorize page sends the browser back to the callback, which hands it to the dashboard's page.
    await page.getByText('Earshot is connected to the Slack workspace Earshot Testers.', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/slack/connected');
    expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();

    await page.goto(`${earshot.url}/alerts`);
    await section.getByText('Connected to the Slack workspace Earshot Testers.').waitFor();
    await section.getByLabel('Notification channel', { exact: true }).selectOption('C0ALERTS01');
    await section.getByLabel('Lowest relevance notified').fill('60');
    await section.getByLabel('Reddit').check();
    await section.getByRole('button', { name: 'Save Slack notifications' }).click();
    await section.getByText('Slack notifications saved.').waitFor();
    const status = await earshot.graphql('{ slackStatus { configured connected teamName notifications { channelId channelName minRelevance sources } } }', {}, apiKey);
    expect(status.body).toEqual({
      data: { slackStatus: { configured: true, connected: true, teamName: 'Earshot Testers', notifications: { channelId: 'C0ALERTS01', channelName: 'alerts', minRelevance: 60, sources: ['reddit'] } } },
    });
    await page.reload();
    expect(await section.getByLabel('Lowest relevance notified').inputValue()).toBe('60');

    // A Slack channel's own settings: picked from Slack's list as the notifications' channel is, only the changed fields sent.
    const channel = await api('POST', '/v1/channels', { kind: 'slack', label: 'Slack alerts', channelId: 'C0ALERTS01', channelName: 'alerts' });
    expect(channel.status).toBe(200);
    await page.goto(`${earshot.url}/alerts/channels/${channel.body.id}`);
    const settings = page.getByRole('region', { name: 'Settings' });
    const picker = settings.getByLabel('Slack channel', { exact: true });
    expect(await picker.inputValue()).toBe('C0ALERTS01');
    await picker.selectOption('C0GENERAL1');
    await settings.getByRole('button', { name: 'Save 2 changes' }).click();
    await settings.getByText('Channel settings saved.').waitFor();
    expect((await api('GET', `/v1/channels/${channel.body.id}`)).body).toMatchObject({ label: 'Slack alerts', config: { channelId: 'C0GENERAL1', channelName: 'general' } });
    await settings.getByRole('button', { name: 'No changes' }).waitFor();

    // A declined or forged return shows why, on the same page.
    await page.goto(`${earshot.url}/v1/slack/oauth/callback?error=access_denied&state=forged`);
    await page.waitForURL(/\/slack\/connected\?error=access_denied&state=forged$/);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The install link is invalid or older than ten minutes');
    await page.close();
  });

  const slackStatus = async () => (await earshot.graphql('{ slackStatus { connected notifications { channelId channelName } } }', {}, apiKey)).body.data.slackStatus;
  /** Installs the app through Slack's OAuth page unless a test before did. */
  async function connectSlack() {
    if ((await slackStatus()).connected) return;
    const start = await api('GET', '/v1/slack/install');
    const callback = new URL((await fetch(start.body.url, { redirect: 'manual' })).headers.get('location')!);
    expect((await earshot.rest('GET', callback.pathname + callback.search)).status).toBe(200);
  }

  it("picks the Slack notification channel from Slack's list with the keyboard, private ones marked, and types it when Slack does not list them", async () => {
    await connectSlack();
    slack.channels.set('C0RANDOM01', 'random').set('C0BOARD001', 'board');
    slack.privateChannels.add('C0BOARD001');
    slack.botMemberships.add('C0BOARD001');
    try {
      const page = await signedInPage();
      await page.goto(`${earshot.url}/alerts`);
      const section = page.getByRole('region', { name: 'Slack' });
      const picker = section.getByLabel('Notification channel', { exact: true });
      await picker.waitFor();
      expect(await picker.locator('option').allTextContents()).toEqual(expect.arrayContaining(['#alerts', '#board (private)', '#general', '#random']));
      expect((await picker.locator('option').allTextContents()).filter((label) => label.startsWith('#'))).toEqual(['#alerts', '#board (private)', '#general', '#random']);

      // The keyboard alone: type in the search box, move to the select, choose with the arrow key, save with Enter.
      await section.getByLabel('Find a Slack channel').focus();
      await page.keyboard.type('boa');
      await expect.poll(async () => (await picker.locator('option').allTextContents()).filter((label) => label.startsWith('#') && label !== '#alerts')).toEqual(['#board (private)']);
      await page.keyboard.press('Tab');
      expect(await picker.evaluate((element) => element === document.activeElement)).toBe(true);
      const before = await picker.inputValue();
      for (let presses = 0; (await picker.inputValue()) !== 'C0BOARD001' && presses < 3; presses++) await page.keyboard.press('ArrowDown');
      expect([before === 'C0BOARD001', await picker.inputValue()]).toEqual([false, 'C0BOARD001']);
      await section.getByRole('button', { name: 'Save Slack notifications' }).focus();
      await page.keyboard.press('Enter');
      await section.getByText('Slack notifications saved.').waitFor();
      expect((await slackStatus()).notifications).toEqual({ channelId: 'C0BOARD001', channelName: 'board' });

      // Slack refusing the list: its reason is said, and the channel is typed instead.
      slack.failListsWith('missing_scope');
      await page.reload();
      await expect.poll(() => section.getByRole('alert').textContent()).toContain('Slack did not list the channels (missing_scope); type the channel instead');
      expect(await section.getByLabel('Notification channel id').inputValue()).toBe('C0BOARD001');
      await section.getByLabel('Notification channel id').fill('C0GENERAL1');
      await section.getByLabel('Notification channel name').fill('general');
      await section.getByRole('button', { name: 'Save Slack notifications' }).click();
      await section.getByText('Slack notifications saved.').waitFor();
      expect((await slackStatus()).notifications).toEqual({ channelId: 'C0GENERAL1', channelName: 'general' });
      await page.close();
    } finally {
      slack.channels.delete('C0RANDOM01');
      slack.channels.delete('C0BOARD001');
    }
  });

  // The create and settings forms of a Slack channel took a typed channel id alone.
  it("creates a Slack channel with the same picker, and types the channel in its create and settings forms when Slack does not list them", async () => {
    await connectSlack();
    slack.channels.set('C0RANDOM01', 'random');
    const channelLabelled = async (label: string) => (await api('GET', '/v1/channels')).body.data.find((channel: { label: string }) => channel.label === label);
    const notListed = 'Slack did not list the channels (missing_scope); type the channel instead';
    try {
      const page = await signedInPage();
      await page.goto(`${earshot.url}/alerts`);
      const channels = page.getByRole('region', { name: 'Channels' });
      await channels.getByLabel('Kind').selectOption('slack');
      await channels.getByLabel('Label').fill('Random chatter');
      const picker = channels.getByLabel('Slack channel', { exact: true });
      await expect.poll(async () => (await picker.locator('option').allTextContents()).filter((label) => label.startsWith('#'))).toContain('#random');
      // With no channel chosen the form is not sent: the browser asks for one, and no server error is shown.
      await channels.getByRole('button', { name: 'Create channel' }).click();
      expect(await picker.evaluate((select: HTMLSelectElement) => select.validity.valueMissing)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await channels.getByRole('alert').count()).toBe(0);
      expect(await channelLabelled('Random chatter')).toBeUndefined();
      await channels.getByLabel('Find a Slack channel').fill('rand');
      await expect.poll(async () => (await picker.locator('option').allTextContents()).filter((label) => label.startsWith('#'))).toEqual(['#random']);
      await picker.selectOption('C0RANDOM01');
      await channels.getByRole('button', { name: 'Create channel' }).click();
      await channels.getByText('Channel “Random chatter” created.').waitFor();
      expect(await channelLabelled('Random chatter')).toMatchObject({ kind: 'slack', config: { channelId: 'C0RANDOM01', channelName: 'random' } });
      expect(await picker.inputValue()).toBe('');

      // Slack refusing the list (the next read of it, the picker's shown anew): its reason is said, and the channel is typed.
      await channels.getByLabel('Kind').selectOption('webhook');
      slack.failListsWith('missing_scope');
      await channels.getByLabel('Kind').selectOption('slack');
      await expect.poll(() => channels.getByRole('alert').textContent()).toContain(notListed);
      await channels.getByLabel('Label').fill('Typed general');
      await channels.getByLabel('Slack channel id').fill('C0GENERAL1');
      await channels.getByLabel('Slack channel name').fill('general');
      await channels.getByRole('button', { name: 'Create channel' }).click();
      await channels.getByText('Channel “Typed general” created.').waitFor();
      expect(await channelLabelled('Typed general')).toMatchObject({ kind: 'slack', config: { channelId: 'C0GENERAL1', channelName: 'general' } });

      const random = await channelLabelled('Random chatter');
      slack.failListsWith('missing_scope');
      await page.goto(`${earshot.url}/alerts/channels/${random.id}`);
      const settings = page.getByRole('region', { name: 'Settings' });
      await expect.poll(() => settings.getByRole('alert').textContent()).toContain(notListed);
      expect(await settings.getByLabel('Slack channel id').inputValue()).toBe('C0RANDOM01');
      await settings.getByLabel('Slack channel id').fill('C0ALERTS01');
      await settings.getByLabel('Slack channel name').fill('alerts');
      await settings.getByRole('button', { name: 'Save 2 changes' }).click();
      await settings.getByText('Channel settings saved.').waitFor();
      expect(await channelLabelled('Random chatter')).toMatchObject({ config: { channelId: 'C0ALERTS01', channelName: 'alerts' } });
      await page.close();
    } finally {
      slack.channels.delete('C0RANDOM01');
    }
  });

  it("confirms an e-mail channel from the mailed link on the dashboard's page; the link alone spends nothing", async () => {
    const created = await api('POST', '/v1/channels', { kind: 'email', label: 'Team inbox', address: 'alerts@acme.example' });
    expect(created.status).toBe(200);
    const [mail] = await eventually(async () => smtp.messages.filter((message) => message.to.includes('alerts@acme.example')), (found) => found.length > 0);
    const link = new URL(/http:\/\/earshot\.example\/v1\/channels\/email\/confirm\?token=[\w%-]+/.exec(mail.text ?? '')![0]);

    // A browser (or a mail scanner) opening the link is sent to the page: the token is not spent by that.
    const opened = await fetch(`${earshot.url}${link.pathname}${link.search}`, { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/confirm-email${link.search}`);
    expect((await api('GET', `/v1/channels/${created.body.id}`)).body.config.confirmed).toBe(false);

    const page = await browser.newPage();
    await page.context().clearCookies();
    await sameServer(page);
    await page.goto(link.toString());
    await page.getByText('alerts@acme.example is confirmed: alerts sent to this channel reach it from now on.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/confirm-email');
    expect((await api('GET', `/v1/channels/${created.body.id}`)).body.config.confirmed).toBe(true);
    // Opened again, the page says the link is used up.
    await page.reload();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/used|invalid/i);
    await page.close();
  });

  it("creates a rule, saying so, and names each rule's buttons after it, so those of two rules tell apart", async () => {
    const channel = await api('POST', '/v1/channels', { kind: 'webhook', label: 'Rule hook', url: `${receiver.url}/rules` });
    const digest = await api('POST', '/v1/alerts', { name: 'Evening digest', mode: 'daily', schedule: { hour: 18 }, channelIds: [channel.body.id] });
    const page = await signedInPage();
    await page.goto(`${earshot.url}/alerts`);
    await page.getByLabel('Rule name').fill('Angry users');
    await page.getByLabel('Which mentions').selectOption({ label: 'Negative' });
    await page.getByRole('group', { name: 'Send to' }).getByLabel('Rule hook (webhook)').check();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('status').filter({ hasText: 'Rule “Angry users” created.' }).waitFor();
    expect((await api('GET', '/v1/alerts')).body.data).toContainEqual(expect.objectContaining({ name: 'Angry users', event: 'mention.negative', channelIds: [channel.body.id] }));
    const rules = page.getByRole('table', { name: 'Alert rules' });
    for (const name of ['Turn off Angry users', 'Test Angry users', 'Turn off Evening digest', 'Test Evening digest', 'Run now Evening digest']) {
      await rules.getByRole('button', { name, exact: true }).waitFor();
    }
    expect(await rules.getByRole('button', { name: 'Run now Angry users' }).count()).toBe(0);
    // The rule reads as it was chosen, and the form starts again from its defaults.
    expect(await rules.getByRole('row').filter({ hasText: 'Angry users' }).getByRole('cell').first().textContent()).toBe('instantly: Negative');
    expect(await page.getByRole('group', { name: 'Send to' }).getByLabel('Rule hook (webhook)').isChecked()).toBe(false);
    expect(await page.getByLabel('Which mentions').inputValue()).toBe('mention.matched');
    await rules.getByRole('button', { name: 'Turn off Evening digest', exact: true }).click();
    await rules.getByRole('button', { name: 'Turn on Evening digest', exact: true }).waitFor();
    const listed = (await api('GET', '/v1/alerts')).body.data;
    expect(listed.find((rule: { id: string }) => rule.id === digest.body.id).enabled).toBe(false);
    expect(listed.find((rule: { name: string }) => rule.name === 'Angry users').enabled).toBe(true);
    await page.close();
  });
});

describe('time zones', () => {
  it("shows times in the viewer's own zone, named, and a digest's UTC hour with what it is there", async () => {
    const channel = await api('POST', '/v1/channels', { kind: 'webhook', label: 'Zone hook', url: `${receiver.url}/zones` });
    await api('POST', '/v1/alerts', { name: 'Western digest', mode: 'daily', schedule: { hour: 18 }, channelIds: [channel.body.id] });
    const keyword = await newKeyword('zoned');
    const mention = await scoredMention(keyword.id, 'Zoned post', 80);
    // West of Greenwich: 18:00 UTC is 10 or 11 in the morning, Pacific time.
    const western = await openBrowser({ timezoneId: 'America/Los_Angeles' });
    try {
      const page = await western.newPage();
      await signInWithPassword(page, earshot.url, 'ada@example.com', password);
      await page.goto(`${earshot.url}/inbox?keywords=${keyword.id}`);
      expect(await page.locator(`#mention-${mention} .mention-meta time`).getAttribute('title')).toMatch(/^\w{3} \d+, \d{4}, \d+:\d\d\s[AP]M P[SD]T$/);

      await page.goto(`${earshot.url}/alerts`);
      const rule = page.getByRole('table', { name: 'Alert rules' }).getByRole('row').filter({ hasText: 'Western digest' });
      await expect.poll(() => rule.getByRole('cell').first().textContent()).toMatch(/^daily at 18:00 UTC \(1[01]:00\sAM P[SD]T here\)$/);
      await page.getByLabel('When').selectOption('daily');
      await page.getByLabel('Hour (UTC)').fill('2');
      await expect.poll(() => page.getByText(/^2:00 UTC is/).textContent()).toMatch(/^2:00 UTC is [67]:00\sPM P[SD]T here$/);
    } finally {
      await western.close();
    }
  });
});

describe('team', () => {
  it("names the account in the password form, for password managers, and leaves the browser's console quiet on the team page", async () => {
    const page = await signedInPage();
    const console: string[] = [];
    page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
    await page.goto(`${earshot.url}/team`);
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Set password' }).waitFor();
    expect(await page.locator('input[autocomplete="username"]').inputValue()).toBe('ada@example.com');
    // Chrome reports a password form without one when it parses the form.
    await page.waitForTimeout(300);
    expect(console).toEqual([]);
    await page.close();
  });

  it("creates an API key shown once, expiring as the chosen day starts in the person's own time zone, and revokes it", async () => {
    // West of Greenwich, where midnight UTC is still the day before.
    const western = await openBrowser({ timezoneId: 'America/Los_Angeles' });
    try {
      const page = await western.newPage();
      await signInWithPassword(page, earshot.url, 'ada@example.com', password);
      await page.goto(`${earshot.url}/team`);
      await page.getByLabel('Key name').fill('Reporting');
      await page.getByLabel('Scope').selectOption('read');
      await page.getByLabel('Expires on (optional)').fill('2027-01-31');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = await page.getByLabel('The new API key').textContent();
      const keys = (await api('GET', '/v1/api-keys')).body.data;
      const created = keys.find((key: { name: string }) => key.name === 'Reporting');
      expect(created).toMatchObject({ scope: 'read', expiresAt: '2027-01-31T08:00:00.000Z' });
      expect(shown).toContain(created.prefix);
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Reporting' }) });
      await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Jan 31, 2027');
      // The form starts again from its defaults.
      expect(await page.getByLabel('Scope').inputValue()).toBe('write');
      expect(await page.getByLabel('Expires on (optional)').inputValue()).toBe('');

      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: 'Revoke Reporting' }).click();
      await expect.poll(() => row.count()).toBe(0);
      expect((await api('GET', '/v1/api-keys')).body.data.map((key: { name: string }) => key.name)).not.toContain('Reporting');
    } finally {
      await western.close();
    }
  });

  it('invites a teammate, who opens the mailed link signed out, accepts and lands in the workspace', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Invitations' }).waitFor();
    await page.getByLabel('E-mail address to invite').fill('bea@example.com');
    await page.getByLabel('Role on joining').selectOption('admin');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to bea@example.com').waitFor();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    // The table is read again after the send: its row comes after the confirmation, not with it.
    await expect.poll(() => pending.getByRole('row').nth(1).locator('th, td').allTextContents()).toEqual(['bea@example.com', 'admin', 'ada', expect.any(String), 'Withdraw the invitation to bea@example.com']);

    const [mail] = await eventually(async () => smtp.messages.filter((message) => message.to.includes('bea@example.com')), (found) => found.length > 0);
    const link = new URL(/https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(mail.text ?? '')![0]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.goto(`${earshot.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Join Acme', level: 1 }).waitFor();
    expect(await page.getByText('invites bea@example.com to the workspace Acme as an admin').count()).toBe(1);
    await page.getByRole('button', { name: 'Accept and join' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(await page.getByText('bea@example.com').count()).toBeGreaterThan(0);

    const members = await api('GET', '/v1/members');
    expect(members).toMatchObject({ status: 200 });
    expect(members.body.data.map((member: { email: string; role: string }) => [member.email, member.role])).toContainEqual(['bea@example.com', 'admin']);
    await page.goto(`${earshot.url}${link.pathname}${link.search}`);
    await page.getByText('This invitation is accepted: it can no longer be answered.').waitFor();
    await page.close();
  });
  it("clears an action's notice once the next action starts: an invitation withdrawn no longer says it was sent", async () => {
    const page = await signedInPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${earshot.url}/team`);
    await page.getByLabel('E-mail address to invite').fill('cyd@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const sent = page.getByText('Invitation sent to cyd@example.com');
    await sent.waitFor();
    await page.getByRole('button', { name: 'Withdraw the invitation to cyd@example.com' }).click();
    await page.getByRole('button', { name: 'Withdraw the invitation to cyd@example.com' }).waitFor({ state: 'detached' });
    expect(await sent.count()).toBe(0);
    expect((await api('GET', '/v1/members/invitations')).body.data.map((invitation: { email: string }) => invitation.email)).not.toContain('cyd@example.com');
    await page.close();
  });
});
