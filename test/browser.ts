import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const run = promisify(execFile);

/** Debian's Chromium: the tests drive the distribution's browser and never download one. */
export const chromiumPath = '/usr/bin/chromium';

/** Installs Debian's `chromium` package when it is missing (CI runs as root on a machine like this one). */
export async function ensureChromium(): Promise<void> {
  if (existsSync(chromiumPath)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, maxBuffer: 64 * 1024 * 1024 });
  await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env, maxBuffer: 64 * 1024 * 1024 });
  if (!existsSync(chromiumPath)) throw new Error(`apt-get installed chromium but ${chromiumPath} is missing`);
}

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile of its own, quiet: no first-run, sync, update or background traffic. */
export async function openBrowser(options: { viewport?: { width: number; height: number }; timezoneId?: string } = {}): Promise<TestBrowser> {
  await ensureChromium();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'earshot-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: options.viewport ?? { width: 1280, height: 860 },
    timezoneId: options.timezoneId,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Under the test's own time-out, so that a step that never comes fails naming what it waited for.
  context.setDefaultTimeout(20_000);
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in on the dashboard's sign-in page with a password, as a person does, and waits for the inbox. */
export async function signInWithPassword(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
}
