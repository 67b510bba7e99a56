/**
 * A registered user's webhooks: the page /dashboard/webhooks, and the small card (with its
 * warning when an endpoint was disabled) that the dashboard shows. Kept apart from the
 * dashboard's own template so each changes without the other.
 */
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

export interface WebhookEndpointModel {
  id: string;
  url: string;
  events: string[];
  description: string;
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  previousSecretUntil: Date | null;
  deliveries: { id: string; eventType: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null; createdAt: Date }[];
}

export interface WebhooksPageModel {
  email: string;
  csrf: string;
  endpoints: WebhookEndpointModel[];
  /** The events a user's endpoints may receive, with what each means. */
  events: { type: string; means: string }[];
  maxEndpoints: number;
  /** A secret just made (new endpoint or rotation), shown this once. */
  newSecret: { endpointId: string; secret: string } | null;
  error?: string | null;
  notice?: string | null;
}

const day = (d: Date) => escapeHtml(d.toISOString().slice(0, 10));
const minute = (d: Date) => escapeHtml(d.toISOString().slice(0, 16).replace('T', ' '));

export function disabledNotice(endpoints: readonly { url: string; disabledAt: Date | null; disabledReason: string | null }[]): string {
  const disabled = endpoints.filter((e) => e.disabledAt !== null);
  if (disabled.length === 0) return '';
  const items = disabled.map((e) => `<li><code>${escapeHtml(e.url)}</code>, on ${day(e.disabledAt ?? new Date())}: ${escapeHtml(e.disabledReason ?? '')}</li>`).join('');
  return `<div class="error" role="alert"><p><strong>${disabled.length === 1 ? 'A webhook endpoint was disabled' : `${disabled.length} webhook endpoints were disabled`}.</strong> Nothing is sent to ${disabled.length === 1 ? 'it' : 'them'} until you enable ${disabled.length === 1 ? 'it' : 'them'} again on <a href="/dashboard/webhooks">the webhooks page</a>.</p><ul>${items}</ul></div>`;
}

/** The dashboard's card: how many endpoints, the way to the page (the warning for a disabled one is `disabledNotice`, shown at the top). */
export function webhooksCard(endpoints: readonly unknown[]): string {
  const count = endpoints.length;
  return `<section class="card" aria-labelledby="webhooks-title">
<h2 id="webhooks-title">Webhooks</h2>
<p>${count === 0 ? 'Be told by your own server when someone completes your test or deletes their result: signed webhooks (Standard Webhooks).' : `${count} endpoint${count === 1 ? '' : 's'}.`}</p>
<p><a class="button secondary" href="/dashboard/webhooks">${count === 0 ? 'Add a webhook' : 'Manage webhooks'}</a></p>
</section>`;
}

function state(e: WebhookEndpointModel): string {
  if (e.disabledAt) return `<span class="badge off">Disabled ${day(e.disabledAt)}</span> <span class="small">${escapeHtml(e.disabledReason ?? '')}</span>`;
  if (e.failingSince) return `<span class="badge warn">Failing since ${minute(e.failingSince)} UTC</span>`;
  return '<span class="badge on">Active</span>';
}

function deliveriesTable(e: WebhookEndpointModel): string {
  if (e.deliveries.length === 0) return '<p class="muted small">No deliveries yet.</p>';
  const rows = e.deliveries
    .map((d) => `<tr><td data-label="When">${minute(d.createdAt)}</td><td data-label="Event">${escapeHtml(d.eventType)}</td><td data-label="Status">${escapeHtml(d.status)}</td><td data-label="Attempts">${d.attempts}</td><td data-label="Last answer">${escapeHtml(d.lastError ?? (d.lastStatus === null ? '—' : String(d.lastStatus)))}</td></tr>`)
    .join('\n');
  return `<details><summary>Latest deliveries</summary><div class="scroll"><table class="stack"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead><tbody>
${rows}
</tbody></table></div></details>`;
}

function endpointCard(model: WebhooksPageModel, e: WebhookEndpointModel): string {
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">`;
  const action = (verb: string) => `/dashboard/webhooks/${encodeURIComponent(e.id)}/${verb}`;
  const secret =
    model.newSecret?.endpointId === e.id
      ? `<div class="notice" role="status"><p><strong>Signing secret.</strong> Copy it now: it is not shown again. Verify every webhook with it.</p><p class="secret"><code id="secret-${escapeHtml(e.id)}">${escapeHtml(model.newSecret.secret)}</code></p>
<div class="copy-row"><button type="button" class="secondary" data-copy="secret-${escapeHtml(e.id)}" hidden>Copy secret</button><span id="secret-${escapeHtml(e.id)}-status" aria-live="polite"></span></div></div>`
      : '';
  const overlap = e.previousSecretUntil ? `<p class="small muted">The previous secret also signs until ${minute(e.previousSecretUntil)} UTC.</p>` : '';
  const enable = e.disabledAt ? `<form method="post" action="${action('enable')}" class="inline">${csrf}<button type="submit">Enable again</button></form>` : '';
  const test = e.disabledAt ? '' : `<form method="post" action="${action('test')}" class="inline">${csrf}<button type="submit" class="secondary">Send a test event</button></form>`;
  return `<section class="card" aria-label="Endpoint ${escapeHtml(e.url)}">
<h2 class="url"><code>${escapeHtml(e.url)}</code></h2>
${secret}
<p>${state(e)}</p>
<p class="small">Events: ${e.events.map((x) => `<code>${escapeHtml(x)}</code>`).join(', ')}${e.description ? ` · ${escapeHtml(e.description)}` : ''} · added ${day(e.createdAt)}</p>
${overlap}
<div class="actions">${enable}${test}
<form method="post" action="${action('rotate')}" class="inline">${csrf}<button type="submit" class="secondary">Rotate secret</button></form>
<form method="post" action="${action('delete')}" class="inline">${csrf}<label class="check inline"><input type="checkbox" name="confirm" value="delete" required><span>Remove</span></label> <button type="submit" class="danger">Remove endpoint</button></form>
</div>
${deliveriesTable(e)}
</section>`;
}

function addForm(model: WebhooksPageModel): string {
  if (model.endpoints.length >= model.maxEndpoints) return `<p class="muted">You have ${model.maxEndpoints} endpoints, the most one account may have.</p>`;
  const boxes = model.events
    .map((e) => `<label class="check"><input type="checkbox" name="events" value="${escapeHtml(e.type)}" checked><span><code>${escapeHtml(e.type)}</code>: ${escapeHtml(e.means)}</span></label>`)
    .join('\n');
  return `<section class="card" aria-labelledby="add-title">
<h2 id="add-title">Add an endpoint</h2>
<form method="post" action="/dashboard/webhooks">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="field"><label for="hook-url">URL</label><input id="hook-url" name="url" type="url" required maxlength="2000" placeholder="https://"></div>
<fieldset class="field"><legend>Events</legend>
${boxes}
</fieldset>
<div class="field"><label for="hook-description">Note (optional)</label><input id="hook-description" name="description" type="text" maxlength="200"></div>
<button type="submit">Add endpoint</button>
</form>
</section>`;
}

export function renderWebhooksPage(model: WebhooksPageModel): string {
  const body = `<nav class="top"><a class="brand" href="/dashboard">Rapport</a><a href="/dashboard">Back to the dashboard</a></nav>
<h1>Webhooks</h1>
${model.notice ? `<div class="notice" role="status">${escapeHtml(model.notice)}</div>` : ''}
${errorBox(model.error)}
${disabledNotice(model.endpoints)}
<p class="muted small">Each event is POSTed as JSON, signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> says (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Answer with any 2xx within 5 seconds; anything else is tried again for a day, and an endpoint that fails for a whole day is disabled. Redirects are not followed.</p>
${model.endpoints.map((e) => endpointCard(model, e)).join('\n')}
${addForm(model)}`;
  return renderShell({
    title: 'Webhooks · Rapport',
    body,
    css: `.badge{display:inline-block;padding:2px 8px;border-radius:6px;font-size:14px;font-weight:600}.badge.on{background:#dcfce7;color:#14532d}.badge.warn{background:#fef3c7;color:#78350f}.badge.off{background:#fee2e2;color:#7f1d1d}
h2.url{font-size:16px;overflow-wrap:anywhere}fieldset{border:0;padding:0}legend{font-weight:600;margin:0 0 4px}.copy-row{display:flex;gap:10px;align-items:center;margin:8px 0 0}label.check.inline{display:inline-flex;margin:0}`,
    scripts: ['/assets/dashboard.js'],
    wide: true,
  });
}
