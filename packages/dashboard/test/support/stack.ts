/**
 * One browser test's world: the real server (fresh SQLite, echo runner) serving this run's dashboard build on
 * 127.0.0.1, a Chromium page signed in with an API key, and screenshots saved under test-results/.
 *
 *   const stack = await startStack();
 *   const page = await stack.signIn();              // team `default`'s admin key; or signIn(memberKey)
 *   await page.getByRole('link', { name: 'Runs' }).click();
 *   await stack.screenshot(page, 'runs-list');
 *   await stack.close();
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer, type TestServerOverrides } from '@agent-runs/server/test/support/server';
import { AgentRuns } from '@agent-runs/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { dashboardRoot } from './build';
import { launchBrowser } from './browser';

export const screenshotDir = path.join(dashboardRoot, 'test-results', 'screenshots');

export interface Stack {
  server: TestServer;
  /** SDK client with team `default`'s admin key, for arranging data and checking what the UI did. */
  admin: AgentRuns;
  browser: Browser;
  /** A fresh browser context (own session storage) with a page signed in with `apiKey` (default: the admin key). */
  signIn(apiKey?: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** Saves a full-page screenshot as test-results/screenshots/<name>.png. */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(overrides: TestServerOverrides = {}): Promise<Stack> {
  const server = await startTestServer({
    ...overrides,
    env: { DASHBOARD_DIR: inject('dashboardDir'), ...overrides.env },
  });
  const browser = await launchBrowser().catch(async (err: unknown) => {
    await server.close();
    throw err;
  });
  const contexts: BrowserContext[] = [];
  const admin = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000 });
  mkdirSync(screenshotDir, { recursive: true });

  return {
    server,
    admin,
    browser,
    async signIn(apiKey = server.adminKey, viewport = { width: 1280, height: 900 }) {
      const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto('/');
      await page.getByLabel('API key').fill(apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      return page;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await server.close();
    },
  };
}

/** The page fits its viewport's width: nothing makes a phone scroll sideways. */
export async function noHorizontalOverflow(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}
