import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium-headless-shell where it is installed (CI installs it, .ci/run), else Debian's
 * chromium; CHROMIUM_PATH points elsewhere. The shell is Chromium's "old" headless mode, the same
 * Blink and V8 without the browser's hidden windows and their UI (Playwright's own default for
 * headless runs): a launch, a new page and a navigation cost it about half the CPU
 * (docs/benchmarks.md, "Suite, eleventh session: the browser files and the map renderer's file").
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Browser tests run where Chromium is installed (CI installs it, .ci/run), and always in CI (where its absence is a failure). */
export const HAVE_BROWSER = existsSync(CHROMIUM) || process.env.CI === 'true';

/**
 * Headless Chromium that reaches nothing on its own (no updates, sync or background fetches).
 * Chromium's new headless mode (plain `chromium`) is the whole browser with its windows hidden:
 * each page's window loads the browser's own WebUI (the omnibox popup, preloaded top-chrome
 * pages) in a renderer of its own, which no test looks at. Turned off, a window costs ~0.6 s less
 * of the browser's CPU (docs/benchmarks.md, "Suite, ninth session"); the shell has none.
 * V8 interprets and compiles to baseline code only (no Maglev or TurboFan): the pages' scripts
 * and axe-core run for a few hundred milliseconds each, and optimising them cost more CPU than
 * it saved (~20 % of an axe run).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--disable-features=WebUIOmniboxPopup,PreloadTopChromeWebUI',
      '--js-flags=--no-opt --no-maglev',
    ],
  });
}
