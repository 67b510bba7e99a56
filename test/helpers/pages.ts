import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './process.ts';

/** Looked at by a person: every page of the browser tests, at a phone's width and a desktop's. */
export const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
export const WIDTHS = [['phone', PHONE], ['desktop', DESKTOP]] as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core's WCAG 2.1 A and AA rules and its best practices on the page as it is now, with text
 * contrast held to 4.5:1 for large text too (WCAG asks 3:1 there). Injected through the
 * DevTools protocol, which the pages' script policy does not govern. Returns the serious and
 * critical violations. `onlyRules` runs just those rules, for a test that asserts on them alone
 * (a whole run on swagger-ui's /docs costs seconds of the browser's CPU).
 */
export async function axeViolations(page: Page, onlyRules?: readonly string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  // The CSS selector naming each node is only for describing a failure, and building them is
  // ~20 % of a clean run's CPU: a run without them decides, and a page that fails is run again
  // with them, so the message names the same nodes it always did.
  const found = await runAxe(page, onlyRules, false);
  return found.length === 0 ? found : runAxe(page, onlyRules, true);
}

async function runAxe(page: Page, onlyRules: readonly string[] | undefined, selectors: boolean): Promise<AxeViolation[]> {
  const runOnly = onlyRules ? { type: 'rule', values: onlyRules } : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] };
  const results = await page.evaluate(`window.axe.run(document, {
    runOnly: ${JSON.stringify(runOnly)},
    checks: { 'color-contrast': { options: { contrastRatio: { normal: { expected: 4.5 }, large: { expected: 4.5 } } } } },
    resultTypes: ['violations'],
    selectors: ${String(selectors)},
  }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target ?? [], failureSummary: n.failureSummary })) })))`);
  return (results as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The violations in words, for a failing assertion. */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => `${where}: ${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(0, 3).join(' ') ?? ''}`).join('\n')}`)
    .join('\n');
}

/**
 * Saves the page as `<name>-phone.png` and `<name>-desktop.png` under test-output/screenshots
 * and checks it with axe-core at both widths; returns every serious or critical violation,
 * described, so a test can assert there are none. The page is left at the desktop width.
 */
export async function visit(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const [label, size] of WIDTHS) {
    await screenshot(page, name, label, size);
    const violations = await axeViolations(page);
    if (violations.length > 0) found.push(describeViolations(`${name} at ${size.width} px`, violations));
    // Nothing may be cut off or need sideways scrolling, on a phone least of all.
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (wide > size.width) found.push(`${name} at ${size.width} px: the page is ${wide} px wide, wider than the screen`);
  }
  await page.setViewportSize(DESKTOP);
  return found;
}

/**
 * The screenshots `visit` saves, at both widths, without its checks: for a page whose checks
 * a test makes its own way (swagger-ui's /docs, where only text contrast is ours to hold).
 * The page is left at the desktop width.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  for (const [label, size] of WIDTHS) await screenshot(page, name, label, size);
  await page.setViewportSize(DESKTOP);
}

async function screenshot(page: Page, name: string, label: string, size: { width: number; height: number }): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(size);
  // Let the layout settle at the new width (sticky headers, wrapped tables) before the shot.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  // From the top: a full-page shot of a scrolled page draws its sticky progress bar where the
  // screen was, over the statements, which no person ever sees. The place is kept for the test.
  const scrolled = await page.evaluate<number>('(() => { const y = window.scrollY; window.scrollTo(0, 0); return y; })()');
  writeFileSync(path.join(SHOTS, `${name}-${label}.png`), await fullPagePng(page));
  await page.evaluate(`window.scrollTo(0, ${scrolled})`);
}

/**
 * The whole page as a PNG: the request `page.screenshot({ fullPage: true })` sends Chromium (it
 * gives the same file), with the encoding set for speed (`optimizeForSpeed`): the same picture
 * in a file ~20 % larger, for about half the browser's CPU, and the browser tests take ~60.
 */
async function fullPagePng(page: Page): Promise<Buffer> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { cssContentSize } = await cdp.send('Page.getLayoutMetrics');
    const clip = { x: 0, y: 0, width: cssContentSize.width, height: cssContentSize.height, scale: 1 };
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: true, clip });
    return Buffer.from(data, 'base64');
  } finally {
    await cdp.detach();
  }
}

/** Presses Tab until the focused element matches, as a keyboard user would; fails after `max` presses. */
export async function tabTo(page: Page, selector: string, max = 12): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The element that has the focus, as a CSS-ish description (tag, id, name), for assertions. */
export function focused(page: Page): Promise<string> {
  return page.evaluate<string>("(() => { const e = document.activeElement; return e ? `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.getAttribute('name') ? '[' + e.getAttribute('name') + ']' : ''}` : ''; })()");
}
