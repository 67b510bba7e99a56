import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (CI installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser tests run where Chromium is installed (CI installs it, .ci/run), and always in CI (where its absence is a failure). */
export const HAVE_BROWSER = existsSync(CHROMIUM) || process.env.CI === 'true';

/**
 * Headless Chromium that reaches nothing on its own (no updates, sync or background fetches).
 * Chromium's headless mode is the whole browser with its windows hidden: each page's window
 * loads the browser's own WebUI (the omnibox popup, preloaded top-chrome pages) in a renderer
 * of its own, which no test looks at. Turned off, a window costs ~0.6 s less of the browser's
 * CPU (docs/benchmarks.md, "Suite, ninth session").
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--disable-features=WebUIOmniboxPopup,PreloadTopChromeWebUI',
    ],
  });
}
