/** What the dashboard benchmarks measure in a page: a signed-in page, the main thread's lateness, percentiles. */
import type { Browser, Page } from 'playwright-core';

const SESSION_KEY = 'agent-runs.api-key';

export const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
export const ms = (x: number): string => `${x.toFixed(0)} ms`;

export async function signedInPage(browser: Browser, baseUrl: string, apiKey: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  await context.addInitScript(([key, value]) => window.sessionStorage.setItem(key!, value!), [SESSION_KEY, apiKey]);
  return context.newPage();
}

/** Installs a 50 ms timer and a long-task observer in the page; `read()` returns what they saw since. */
export async function watchMainThread(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __lags: number[]; __longTasks: number; __timer: number };
    w.__lags = [];
    w.__longTasks = 0;
    let last = performance.now();
    w.__timer = window.setInterval(() => {
      const now = performance.now();
      w.__lags.push(Math.max(0, now - last - 50));
      last = now;
    }, 50);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks += e.duration;
    }).observe({ type: 'longtask', buffered: false });
  });
  return {
    async read(): Promise<{ lags: number[]; longTasks: number }> {
      return page.evaluate(() => {
        const w = window as unknown as { __lags: number[]; __longTasks: number };
        const out = { lags: w.__lags, longTasks: w.__longTasks };
        w.__lags = [];
        w.__longTasks = 0;
        return out;
      });
    },
  };
}

/**
 * From the page's first script: the time (from navigation start) of the first frame after `text` entered the
 * DOM. Measured in the page, since polling for it from the test process (a locator's waitFor) adds its own
 * delay, hundreds of milliseconds on a loaded machine. `shown()` waits for it and returns it.
 */
export async function whenTextShown(page: Page, text: string) {
  await page.addInitScript((wanted) => {
    const w = window as unknown as { __shownAt?: number };
    new MutationObserver((records, observer) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!node.textContent?.includes(wanted)) continue;
          observer.disconnect();
          requestAnimationFrame(() => (w.__shownAt = performance.now()));
          return;
        }
      }
    }).observe(document, { subtree: true, childList: true });
  }, text);
  return {
    async shown(timeoutMs: number): Promise<number> {
      const handle = await page.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt, undefined, { timeout: timeoutMs });
      return (await handle.jsonValue()) as number;
    },
  };
}
