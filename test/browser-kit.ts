// The web view's browser tests share this: Debian's chromium driven by playwright-core (never a
// downloaded browser), pages that record console and page errors, screenshots in test-output/, and
// the layout check every screenshot passes (nothing wider than the window, nothing off screen).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { ROOT } from './helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const CI = Boolean(process.env.CI);
const SKIP = !HAS_CHROMIUM && !CI;
export const OUT = join(ROOT, 'test-output');

let browser: Browser | undefined;

/** A describe block with one chromium for its tests: skipped (saying why) without one, failed without one under CI. */
export function describeBrowser(name: string, body: () => void): void {
  describe.skipIf(SKIP)(`${name}${SKIP ? ` (skipped: ${CHROMIUM} not found; .ci/run installs it)` : ''}`, () => {
    beforeAll(async () => {
      if (!HAS_CHROMIUM) throw new Error(`${CHROMIUM} not found: with CI set, the browser tests run instead of skipping`);
      mkdirSync(OUT, { recursive: true });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    });
    afterAll(async () => {
      await browser?.close();
      browser = undefined;
    });
    body();
  });
}

/** A page `width` pixels wide that records every console error and page error (a test fails on any). */
export async function openPage(width = 1280, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; errors: string[] }> {
  if (!browser) throw new Error('openPage outside describeBrowser');
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: options.colorScheme ?? 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return { page, errors };
}

/** Waits for the page to say it has drawn `path` (app.ts sets body[data-ready] to path + search). */
export async function ready(page: Page, path: string): Promise<void> {
  await page.waitForFunction((p) => document.body.dataset.ready === p, path, { timeout: 30_000 });
}

/** The window's screenshot in test-output/NAME.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: false });
}

/**
 * What is wrong with the layout as drawn: the page scrolls sideways, or a visible element reaches
 * past the window's left or right edge (an element inside something that scrolls or clips sideways
 * on purpose, such as a code block, is that box's business, not the page's). Empty when all is well.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    const clipped = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
      }
      return false;
    };
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if ((r.right > width + 1 || r.left < -1) && !clipped(el)) problems.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px in a ${width} px window`);
    }
    return problems.slice(0, 20);
  });
}

/** Scrolls a commit's page to the end until every message of its context is on it; their number. */
export async function loadAll(page: Page): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const [loaded, total] = await page.$eval('#messages', (el) => [Number((el as HTMLElement).dataset.loaded), Number((el as HTMLElement).dataset.total)]);
    if (loaded === total) return total;
    await page.mouse.wheel(0, 100_000);
    await page.waitForTimeout(50);
  }
  throw new Error('the messages never finished loading');
}
