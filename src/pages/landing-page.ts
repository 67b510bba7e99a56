/** The start page a browser gets at `/`: what Rapport is, sign-up and log-in, and the API docs of both hosts. */
import { renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

export interface LandingModel {
  /** Which host answers: the base host has the pages and groups A and B; the Connect host only group C. */
  host: 'base' | 'connect';
  /** Anyone may sign up (RAPPORT_SIGNUP). */
  signupOpen: boolean;
  /** The other host's docs, absolute; null where it cannot be told (no PUBLIC_CONNECT_URL and no fixed port). */
  connectDocsUrl: string | null;
  /** The base host's start page, from the Connect host; null where unknown. */
  baseUrl: string | null;
}

const CSS = `
.hero{padding:28px 24px}
.hero h1{font-size:32px;margin:0 0 10px}
.hero .lead{font-size:18px;color:#323f4b;max-width:640px}
.grid3{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:18px;margin:0 0 18px}
.grid3 .card{margin:0;display:flex;flex-direction:column}
.grid3 .card p{flex:1}
.group{align-self:flex-start;display:inline-block;font-size:13px;font-weight:700;color:#334e68;background:#e6eef8;border-radius:999px;padding:2px 10px;margin:0 0 8px}
ul.links{list-style:none;padding:0;margin:0}
ul.links li{padding:8px 0;border-bottom:1px solid #e4e7eb}
ul.links li:last-child{border-bottom:0}
`;

function authLinks(model: LandingModel): string {
  if (model.host === 'connect') return '';
  return `<a class="button secondary small" href="/login">Log in</a>${model.signupOpen ? ' <a class="button small" href="/signup">Create an account</a>' : ''}`;
}

export function renderLandingPage(model: LandingModel): string {
  const base = model.host === 'base';
  const connectDocs = model.host === 'connect' ? '/docs' : model.connectDocsUrl;
  const testCard = base
    ? `<section class="card" aria-labelledby="b-title"><span class="group">Assessment</span>
<h2 id="b-title">A personality test for your users</h2>
<p>Give people Rapport's test (48 statements, about seven minutes) from a button in your app or a hiring link. They see their own result at once and can delete it whenever they like; you see it on your dashboard and through the Assessment API.</p>
<p class="actions">${model.signupOpen ? '<a class="button" href="/signup">Create an account</a>' : '<span class="muted small">Sign-up is closed here: ask the operator of this service for an account.</span>'} <a href="/login">Log in</a></p>
</section>`
    : '';
  const docs = [
    base ? '<li><a href="/docs">Enterprise and Assessment API docs</a> <span class="muted small">(this host: profiles, text and PDF analysis, the test\'s lookups)</span></li>' : '',
    connectDocs ? `<li><a href="${escapeHtml(connectDocs)}">Connect API docs</a> <span class="muted small">(search, relationships, messages, emails)</span></li>` : '<li class="muted small">Connect API docs: on the Connect port of this service, at <code>/docs</code>.</li>',
    '<li><a href="/openapi.json">OpenAPI document of this host</a> <span class="muted small">(JSON)</span></li>',
    '<li><a href="/healthz">Health check</a></li>',
    !base && model.baseUrl ? `<li><a href="${escapeHtml(model.baseUrl)}">Rapport's start page</a> <span class="muted small">(sign-up, log-in, the personality test)</span></li>` : '',
  ].join('\n');
  const body = `<section class="card hero">
<h1>Know how to talk to the people you work with</h1>
<p class="lead">Rapport is a self-hosted personality service: DISC profiles, and advice on how to communicate with a person, from a short personality test or from what they have written.</p>
${base ? `<p class="actions">${model.signupOpen ? '<a class="button" href="/signup">Create an account</a> ' : ''}<a class="button secondary" href="/login">Log in</a> <a href="/docs">Read the API docs</a></p>` : '<p><a class="button" href="/docs">Read the Connect API docs</a></p>'}
</section>
<div class="grid3">
${testCard}
<section class="card" aria-labelledby="a-title"><span class="group">Enterprise</span>
<h2 id="a-title">Profiles and analysis</h2>
<p>Look a person up by email or LinkedIn address, or analyse a text or a PDF they wrote: their DISC type, how sure the reading is, and how to communicate with them.</p>
<p>${base ? '<a href="/docs">Enterprise API docs</a>' : model.baseUrl ? `<a href="${escapeHtml(model.baseUrl)}/docs">Enterprise API docs</a>` : ''}</p>
</section>
<section class="card" aria-labelledby="c-title"><span class="group">Connect</span>
<h2 id="c-title">Search, relationships and messages</h2>
<p>Find a person by name or email, get advice for two people working together, check a draft against its reader's style, and sample emails written for them.</p>
<p>${connectDocs ? `<a href="${escapeHtml(connectDocs)}">Connect API docs</a>` : '<span class="muted small">Docs on the Connect port, at /docs.</span>'}</p>
</section>
</div>
<section class="card" aria-labelledby="dev-title">
<h2 id="dev-title">For developers</h2>
<ul class="links">
${docs}
</ul>
</section>`;
  return renderShell({
    title: base ? 'Rapport: personality profiles and communication advice' : 'Rapport Connect API',
    body,
    css: CSS,
    wide: true,
    headerRight: authLinks(model),
  });
}
