/** A registered user's dashboard: who is asking, the API token, usage, the button's code, test takers, hiring links. */
import { errorBox, renderShell } from './app-shell.ts';
import { hiringCard, takersCard } from './dashboard-people.ts';
import { escapeHtml } from './html.ts';

export interface DashboardModel {
  email: string;
  csrf: string;
  /** The user's test link, absolute. */
  testUrl: string;
  token: { prefix: string; createdAt: Date } | null;
  /** A token just made: its secret, shown this once. */
  newSecret: string | null;
  usage: { callsThisMonth: number; monthlyQuota: number | null; rateLimitPerMinute: number | null; month: string } | null;
  /** The organisation the test names as who is asking; null when not set. */
  organisationName: string | null;
  /** profileUrl: the person's profile page once they confirmed their address; null before (and always without mail). */
  takers: { name: string; email: string; discType: string; archetype: string; takenAt: Date; profileUrl: string | null; role: string | null }[];
  /** How many takers match the search (the list shows the newest of them). */
  takersTotal: number;
  /** The search the list is narrowed to; '' for everyone. */
  query: string;
  /** The service sends mail: results become profiles once confirmed, and tokens need a confirmed address. */
  mailEnabled: boolean;
  /** Mail is set up and this account's address is not confirmed yet: no token until it is. */
  mustConfirmForToken: boolean;
  hiring: { id: string; role: string; url: string; testUrl: string; createdAt: Date; closedAt: Date | null }[];
  error?: string | null;
  notice?: string | null;
  /** Warnings from other parts (a disabled webhook endpoint), HTML, shown at the top. */
  alerts?: string[];
  /** Cards from other parts (webhooks), HTML, shown after the dashboard's own. */
  sections?: string[];
}

const CSS = `
.usage-numbers{display:flex;gap:24px;flex-wrap:wrap}
.usage-numbers div{min-width:140px}
.usage-numbers strong{display:block;font-size:24px}
.meter{height:10px;border-radius:5px;background:#d9dee4;overflow:hidden;margin:10px 0 0}
.meter div{height:100%;background:#1d4ed8}
.copy-row{display:flex;gap:10px;align-items:center;margin:8px 0 0}
code.link{display:block;overflow-wrap:anywhere;background:#f8fafc;border:1px solid #d9dee4;border-radius:6px;padding:4px 8px}
.cell{min-width:0;flex:1}
.cell .copy-row{margin:6px 0 0}
.preview{padding:12px;border:1px dashed #7b8794;border-radius:8px;margin:10px 0 0}
td a,.small a{overflow-wrap:anywhere}
td.email{overflow-wrap:anywhere}
tr.closed td{color:#52606d}
.count{color:#52606d;font-weight:400}
.field.buttons{flex:none;display:flex;gap:12px;align-items:center}
.rotate{border:2px solid #c2410c;border-radius:10px;padding:12px 14px;background:#fff7ed;margin:0 0 12px}
.rotate label.check{margin:0}
@media (max-width:640px){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}table.stack,table.stack tbody{display:block}table.stack tr{display:block;border-bottom:1px solid #d9dee4;padding:8px 0}table.stack td{display:flex;gap:10px;border:0;padding:3px 0;min-width:0}table.stack td::before{content:attr(data-label);flex:none;width:86px;color:#52606d;font-weight:600}table.stack td > *{min-width:0}}
.rapport-test-button{display:inline-block;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#fff;font-weight:600;text-decoration:none}
`;

/** The snippet the user pastes into their app. Inline styles only, so it needs no style sheet of theirs. */
export function buttonSnippet(testUrl: string, withEmail: boolean): string {
  const href = withEmail ? `${testUrl}?api_user_email=ENCODED_EMAIL` : testUrl;
  return `<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#fff;font:600 16px system-ui,sans-serif;text-decoration:none">Take Personality Test</a>`;
}

function tokenCard(model: DashboardModel): string {
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">`;
  const secret = model.newSecret
    ? `<div class="notice" role="status"><p><strong>Your new API token.</strong> Copy it now: it is not shown again.</p>
<p class="secret"><code id="new-token">${escapeHtml(model.newSecret)}</code></p>
<div class="copy-row"><button type="button" class="secondary" data-copy="new-token" hidden>Copy token</button><span id="new-token-status" aria-live="polite"></span></div></div>`
    : '';
  if (model.mustConfirmForToken) {
    return `<section class="card" aria-labelledby="token-title">
<h2 id="token-title">API token</h2>
<p>Confirm your email address to create your API token: we mail a link to <strong>${escapeHtml(model.email)}</strong>.</p>
<form method="post" action="/dashboard/confirm-email">${csrf}<button type="submit">Mail me the link</button></form>
</section>`;
  }
  const current = model.token
    ? `<p>Live token: <code>${escapeHtml(model.token.prefix)}…</code>, made ${escapeHtml(model.token.createdAt.toISOString().slice(0, 10))}. Rotating makes a new one and revokes this one at once.</p>`
    : '<p>You have no API token yet.</p>';
  // Rotating revokes the live token at once: the box must be ticked (checked again on the server).
  // The box says what the button does, in the button's words.
  const tokenForm = model.token
    ? `<form method="post" action="/dashboard/token">${csrf}
<div class="rotate"><label class="check" for="rotate-confirm"><input type="checkbox" id="rotate-confirm" name="confirm" value="rotate" required><span>Yes, rotate the token: make a new one and revoke <code>${escapeHtml(model.token.prefix)}…</code> at once. Every app that uses it gets 401 until it has the new one.</span></label></div>
<button type="submit" class="secondary">Rotate token</button></form>`
    : `<form method="post" action="/dashboard/token">${csrf}<button type="submit">Create token</button></form>`;
  return `<section class="card" aria-labelledby="token-title">
<h2 id="token-title">API token</h2>
${secret}
${current}
${tokenForm}
</section>`;
}

function usageCard(model: DashboardModel): string {
  if (!model.usage) return '';
  const u = model.usage;
  const pct = u.monthlyQuota ? Math.min(100, Math.round((u.callsThisMonth / u.monthlyQuota) * 100)) : 0;
  return `<section class="card" aria-labelledby="usage-title">
<h2 id="usage-title">Usage in ${escapeHtml(u.month)}</h2>
<div class="usage-numbers">
<div><strong>${u.callsThisMonth.toLocaleString('en-US')}</strong>calls this month</div>
<div><strong>${u.monthlyQuota === null ? 'no limit' : u.monthlyQuota.toLocaleString('en-US')}</strong>free calls a month</div>
<div><strong>${u.rateLimitPerMinute === null ? 'no limit' : u.rateLimitPerMinute.toLocaleString('en-US')}</strong>calls a minute at most</div>
</div>
${u.monthlyQuota ? `<div class="meter" role="img" aria-label="${pct}% of this month's free calls used"><div style="width:${pct}%"></div></div>` : ''}
</section>`;
}

function buttonCard(model: DashboardModel): string {
  const snippet = buttonSnippet(model.testUrl, true);
  return `<section class="card" aria-labelledby="button-title">
<h2 id="button-title">Your test button</h2>
<p>Paste this into your app. Replace <code>ENCODED_EMAIL</code> with the person's email, URL-encoded (<code>encodeURIComponent(email)</code>), so their result is filed under it and you can look them up; or leave out <code>?api_user_email=…</code> and the person gives their email on the test page.</p>
<label for="button-code">Button code</label>
<textarea id="button-code" class="code" readonly>${escapeHtml(snippet)}</textarea>
<div class="copy-row"><button type="button" class="secondary" data-copy="button-code" hidden>Copy code</button><span id="button-code-status" aria-live="polite"></span></div>
<p class="small" style="margin-top:12px">Your test link: <a href="${escapeHtml(model.testUrl)}">${escapeHtml(model.testUrl)}</a></p>
<div class="preview"><span class="muted small">Preview:</span> <a class="rapport-test-button" href="${escapeHtml(model.testUrl)}">Take Personality Test</a></div>
</section>`;
}

function organisationCard(model: DashboardModel): string {
  return `<section class="card" aria-labelledby="org-title">
<h2 id="org-title">Who is asking</h2>
<p>The test's first screen tells each person who asked them to take it: ${model.organisationName ? `<strong>${escapeHtml(model.organisationName)}</strong>` : 'you have not given a name yet, so it says "the organisation that gave you this link"'}.</p>
<form method="post" action="/dashboard/organisation">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="row">
<div class="field"><label for="organisation">Your organisation's name</label><input id="organisation" name="organisation" type="text" maxlength="120" autocomplete="organization" value="${escapeHtml(model.organisationName ?? '')}"></div>
<div class="field buttons"><button type="submit" class="secondary">Save name</button></div>
</div>
</form>
</section>`;
}

export function renderDashboard(model: DashboardModel): string {
  const account = `<span class="muted small">${escapeHtml(model.email)}</span><form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}"><button type="submit" class="secondary small">Log out</button></form>`;
  const body = `<h1>Dashboard</h1>
${model.notice ? `<div class="notice" role="status">${escapeHtml(model.notice)}</div>` : ''}
${errorBox(model.error)}
${(model.alerts ?? []).join('\n')}
${takersCard(model)}
${organisationCard(model)}
${buttonCard(model)}
${hiringCard(model)}
${tokenCard(model)}
${usageCard(model)}
${(model.sections ?? []).join('\n')}`;
  return renderShell({
    title: 'Dashboard · Rapport',
    body,
    css: `${CSS}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`,
    scripts: ['/assets/copy.js'],
    wide: true,
    headerRight: account,
    homeHref: '/dashboard',
  });
}
