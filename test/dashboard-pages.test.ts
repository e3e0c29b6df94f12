import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeDailyKeywordFees, creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { setUserPassword } from '../subgraphs/team/user-password.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import type { Intent, Sentiment } from '../vocabulary/classification-values.ts';
import type { NormalizedPost, Platform } from '../vocabulary/normalized-post.ts';
import { chargeMentions } from './billing-seed.ts';
import { openBrowser, signInWithPassword, type TestBrowser } from './browser.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fake-upstreams/webhook-receiver.ts';
import { startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

/**
 * Every main page of the dashboard, on a workspace with a few weeks of use,
 * at a desktop's and a phone's width: no WCAG 2.1 A/AA violation axe-core can
 * find, nothing wider than the screen. `npm run screenshots` also saves each
 * page as a PNG under docs/screenshots for the README.
 */

const screenshotDir = process.env.EARSHOT_SCREENSHOTS;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const widths = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
const password = 'correct horse battery';
const day = 86_400_000;

let earshot: TestEarshot;
let browser: TestBrowser;
let receiver: WebhookReceiver;
const ids: Record<string, string> = {};

const posts: { keyword: string; platform: Platform; author: string; text: string; relevance: number; sentiment: Sentiment; intents: Intent[]; hoursAgo: number }[] = [
  { keyword: 'Earshot', platform: 'hackernews', author: 'pg_fan', text: 'Show HN: we replaced three brand-monitoring tools with Earshot. The relevance scores are surprisingly good and the webhook signatures follow Standard Webhooks.', relevance: 92, sentiment: 'positive', intents: ['praise'], hoursAgo: 1 },
  { keyword: 'Earshot', platform: 'reddit', author: 'devops_dana', text: 'Is there a way to get Earshot alerts into our Slack only for negative mentions? Looking at the docs now.', relevance: 81, sentiment: 'neutral', intents: ['question'], hoursAgo: 3 },
  { keyword: 'Earshot', platform: 'bluesky', author: 'maya.bsky.social', text: 'Earshot vs. the big social listening suites: a tenth of the price for what a developer tool needs. A comparison thread.', relevance: 77, sentiment: 'positive', intents: ['comparison'], hoursAgo: 7 },
  { keyword: 'Earshot', platform: 'github', author: 'octo-sam', text: 'Earshot webhook retries hit our rate limiter; the Retry-After is honoured but the burst after an outage is large.', relevance: 74, sentiment: 'negative', intents: ['complaint'], hoursAgo: 20 },
  { keyword: 'Hearsay', platform: 'hackernews', author: 'competitive_intel', text: 'Hearsay raised prices again. Anyone know an alternative that bills per mention instead of per seat?', relevance: 88, sentiment: 'negative', intents: ['buy_intent', 'question'], hoursAgo: 5 },
  { keyword: 'Hearsay', platform: 'stackoverflow', author: 'q_asker', text: 'How do I export Hearsay mentions to CSV with their sentiment scores?', relevance: 66, sentiment: 'neutral', intents: ['question'], hoursAgo: 30 },
  { keyword: 'social listening', platform: 'devto', author: 'writes_a_lot', text: 'A practical guide to social listening for open source maintainers: what to track, how to cut the noise.', relevance: 70, sentiment: 'positive', intents: [], hoursAgo: 9 },
];

let sequence = 0;
function post(item: (typeof posts)[number]): NormalizedPost {
  sequence += 1;
  return {
    platform: item.platform,
    externalId: `page-${sequence}`,
    url: `https://example.com/${item.platform}/${sequence}`,
    text: item.text,
    publishedAt: new Date(Date.now() - item.hoursAgo * 3_600_000),
    replyTo: null,
    links: [],
    author: { platformId: item.author, name: item.author, handle: item.author, url: `https://example.com/u/${item.author}`, avatarUrl: null, followers: 1200 + sequence * 37 },
  };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  earshot = await startTestEarshot({ env: { ...unreachableUpstreams, EARSHOT_ALLOW_PRIVATE_URLS: '1' } });
  const { workspace, apiKey } = await provisionWorkspace(earshot.sql, 'Acme', { ownerEmail: 'ada@acme.example' });
  await setUserPassword(earshot.sql, 'ada@acme.example', password);
  const rest = async (method: string, route: string, body?: unknown) => {
    const response = await earshot.rest(method, route, { key: apiKey, body });
    expect(response.status, `${method} ${route}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return response;
  };
  await creditWalletByOperator(earshot.sql, { workspaceId: workspace.id, cents: 5_000, at: new Date(Date.now() - 20 * day) });
  for (const [term, kind] of [['Earshot', 'brand'], ['Hearsay', 'competitor'], ['social listening', 'topic']] as const) {
    ids[term] = (await rest('POST', '/v1/keywords', { term, kind })).body.id;
  }
  await rest('PATCH', `/v1/keywords/${ids.Earshot}`, { context: 'Earshot the mention-tracking service, not the distance a voice carries.', cap: { mentions: 2000, per: 'month' } });
  for (const item of posts) {
    const [mention] = await storeMatchedPost(earshot.sql, post(item), [{ keywordId: ids[item.keyword], workspaceId: workspace.id, fuzzy: false }]);
    await saveClassification(earshot.sql, mention.id, { relevance: item.relevance, sentiment: item.sentiment, intents: item.intents, automated: false, language: 'en', note: '', priority: item.relevance / 100 }, new Date());
  }
  // Three weeks of keyword days and matches, for the wallet's chart and breakdown: the keywords are made three weeks old first.
  await earshot.sql`update keywords set created_at = now() - interval '21 days' where workspace_id = ${workspace.id}`;
  for (let back = 20; back >= 1; back--) {
    const at = new Date(Date.now() - back * day);
    await chargeDailyKeywordFees(earshot.sql, at.toISOString().slice(0, 10), { at });
    await chargeMentions(earshot.sql, { id: ids.Earshot, workspaceId: workspace.id }, 4 + ((back * 7) % 9), at);
    await chargeMentions(earshot.sql, { id: ids.Hearsay, workspaceId: workspace.id }, 1 + ((back * 5) % 4), at);
  }
  const channel = await rest('POST', '/v1/channels', { kind: 'webhook', label: 'Ops webhook', url: `${receiver.url}/earshot`, events: ['wallet.low', 'keyword.capped'] });
  ids.channel = channel.body.id;
  await rest('POST', '/v1/alerts', { name: 'Unhappy users', event: 'mention.negative', channelIds: [ids.channel] });
  await rest('POST', '/v1/alerts', { name: 'Morning digest', mode: 'daily', schedule: { hour: 8 }, channelIds: [ids.channel] });
  await rest('POST', `/v1/channels/${ids.channel}/test`);
  await rest('POST', '/v1/api-keys', { name: 'CI reporter', scope: 'read' });
  // The author of the top mention has been contacted: their person card shows the log.
  const [pgFan] = (await rest('GET', '/v1/people?q=pg_fan')).body.data;
  await rest('POST', `/v1/people/${pgFan.id}/activities`, { channel: 'email', note: 'Thanked them for the Show HN write-up; asked for a quote for the site.' });
  await rest('PATCH', `/v1/people/${pgFan.id}`, { stage: 'replied' });
  browser = await openBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await earshot?.stop();
  await receiver?.close();
});

const pages: { name: string; path: string; heading: string }[] = [
  { name: 'inbox', path: '/inbox?sort=priority', heading: 'Inbox' },
  { name: 'people', path: '/people', heading: 'People' },
  { name: 'keywords', path: '/keywords', heading: 'Keywords' },
  { name: 'keyword', path: '/keywords/:Earshot', heading: 'Earshot' },
  { name: 'analytics', path: '/analytics?by=platform', heading: 'Analytics' },
  { name: 'wallet', path: '/wallet', heading: 'Wallet & usage' },
  { name: 'alerts', path: '/alerts', heading: 'Alerts & channels' },
  { name: 'channel', path: '/alerts/channels/:channel', heading: 'Ops webhook' },
  { name: 'team', path: '/team', heading: 'Team' },
];

/** axe-core's WCAG 2.1 A and AA findings on the page as it is now. */
async function accessibilityViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  // Evaluated by the test's driver, not as a page script: the page's CSP allows no inline script, rightly.
  await page.evaluate(await readFile(axePath, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
  });
}

/**
 * The page's headings in document order that come more than one level below
 * the heading before them (an h3 straight under an h1): a screen reader's
 * outline of the page then has a hole.
 */
async function skippedHeadingLevels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')];
    return headings.filter((heading, at) => at > 0 && Number(heading.tagName[1]) > Number(headings[at - 1].tagName[1]) + 1).map((heading) => `${heading.tagName}: ${heading.textContent}`);
  });
}

/**
 * Table cells laid out as something else than table cells (a flex cell ends
 * short of its row, and its border with it): each by its table's label and
 * its text.
 */
async function cellsOutOfTheirRows(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('td, th')]
      .filter((cell) => getComputedStyle(cell).display !== 'table-cell')
      .map((cell) => `${cell.closest('[aria-label]')?.getAttribute('aria-label') ?? 'table'}: ${cell.textContent?.trim()}`),
  );
}

/**
 * Table cells of running text squeezed narrower than ten characters, so
 * that their words break letter by letter ("Quillpa / d crashe / d"): a
 * table on a phone scrolls sideways in its region rather than that.
 */
async function squeezedTextCells(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('td')]
      .map((cell) => {
        // The cell's own words: a control's name or a hidden label is not text laid out in the cell's width.
        const words = cell.cloneNode(true) as HTMLElement;
        words.querySelectorAll('button, select, input, textarea, label, .visually-hidden').forEach((control) => control.remove());
        return { cell, text: (words.textContent ?? '').trim() };
      })
      .filter(({ cell, text }) => text.length > 20 && cell.getBoundingClientRect().width < 10 * parseFloat(getComputedStyle(cell).fontSize))
      .map(({ cell, text }) => `${cell.closest('[aria-label]')?.getAttribute('aria-label') ?? 'table'}: ${text}`),
  );
}

/** A chart's labels drawn under 9 px once its SVG is scaled to the screen. */
async function unreadableChartLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<SVGTextElement>('svg.chart text')]
      .filter((text) => {
        const chart = text.ownerSVGElement!;
        const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
        return parseFloat(getComputedStyle(text).fontSize) * scale < 9;
      })
      .map((text) => `${text.ownerSVGElement!.getAttribute('aria-label')?.slice(0, 40)}: ${text.textContent}`),
  );
}

async function capture(page: Page, name: string) {
  if (!screenshotDir) return;
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

describe.each(Object.entries(widths))('the dashboard at %s width', (widthName, viewport) => {
  it('shows the sign-in page without an accessibility violation', async () => {
    const page = await browser.newPage();
    await page.context().clearCookies();
    await page.setViewportSize(viewport);
    await page.goto(`${earshot.url}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await capture(page, `sign-in-${widthName}`);
    await page.close();
  });

  it.each(pages)('shows the $name page without an accessibility violation or sideways scrolling', async ({ name, path: route, heading }) => {
    const page = await browser.newPage();
    await page.context().clearCookies();
    await page.setViewportSize(viewport);
    await signInWithPassword(page, earshot.url, 'ada@acme.example', password);
    await page.goto(`${earshot.url}${route.replace(/:(\w+)/, (_, key: string) => ids[key])}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await skippedHeadingLevels(page)).toEqual([]);
    expect(await cellsOutOfTheirRows(page)).toEqual([]);
    expect(await squeezedTextCells(page)).toEqual([]);
    expect(await unreadableChartLabels(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await capture(page, `${name}-${widthName}`);
    await page.close();
  });

  it("shows a mention's person card, with its outreach log, without an accessibility violation or sideways scrolling", async () => {
    const page = await browser.newPage();
    await page.context().clearCookies();
    await page.setViewportSize(viewport);
    await signInWithPassword(page, earshot.url, 'ada@acme.example', password);
    await page.goto(`${earshot.url}/inbox`);
    const card = page.locator('article.mention').filter({ hasText: 'pg_fan' });
    await card.getByText(/^Outreach with pg_fan: /).click();
    await card.locator('.activity-log').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await card.scrollIntoViewIfNeeded();
    await capture(page, `person-card-${widthName}`);
    await page.close();
  });

  it('shows the triage picker and a link landing page without an accessibility violation or sideways scrolling', async () => {
    const page = await browser.newPage();
    await page.context().clearCookies();
    await page.setViewportSize(viewport);
    await signInWithPassword(page, earshot.url, 'ada@acme.example', password);
    await page.locator('article.mention').first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('a');
    await page.getByRole('dialog', { name: 'Assign the mention by' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');

    await page.goto(`${earshot.url}/v1/channels/email/confirm?token=not-a-token`);
    await page.getByRole('heading', { name: 'Confirming the e-mail channel', level: 1 }).waitFor();
    await page.getByRole('alert').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
