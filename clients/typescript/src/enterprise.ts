import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import createClient from 'openapi-fetch';
import { StillProcessingError } from './errors.ts';
import type { operations, paths } from './generated/base.ts';
import { sleep, unwrap, type ClientOptions } from './runtime.ts';

type Json<Op extends keyof operations, Status extends number> = operations[Op]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

export type ProfileA1 = Json<'getProfile', 200>;
export type AnalysisA3 = Json<'analyzeText', 200>;
export type EnterpriseWebhook = Json<'createEnterpriseWebhook', 201>;

/** A PDF to upload: a file path, its bytes, a Blob, or a stream (Node's or a web one). */
export type PdfSource = string | URL | Uint8Array | Blob | NodeJS.ReadableStream | ReadableStream<Uint8Array>;

async function pdfBody(source: PdfSource): Promise<Blob | Uint8Array | ReadableStream<Uint8Array>> {
  if (typeof source === 'string' || source instanceof URL) return openAsBlob(source, { type: 'application/pdf' });
  if (source instanceof Uint8Array || source instanceof Blob || source instanceof ReadableStream) return source;
  return Readable.toWeb(Readable.from(source)) as ReadableStream<Uint8Array>;
}

function isProcessing(answer: object): answer is Json<'getAnalysis', 202> {
  const data = 'data' in answer ? answer.data : null;
  return typeof data === 'object' && data !== null && 'status' in data && data.status === 'processing';
}

export interface WaitOptions {
  /** Between two looks (default 1,000 ms). */
  pollIntervalMs?: number;
  /** Give up after this long with a StillProcessingError (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Group A, Enterprise ({base_url}, `Authorization: Bearer <token>`). */
export function enterpriseClient(options: ClientOptions) {
  const api = createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.token}` }, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const analysis = (id: string) => unwrap(api.GET('/v1/analysis/{id}', { params: { path: { id } } }));
  return {
    usage: () => unwrap(api.GET('/v1/usage')),
    /** A1 for a stored person, by email or LinkedIn URL; a RapportError not_found when nobody is stored under them. */
    profile: (query: { email?: string; linkedin_url?: string }) => unwrap(api.GET('/v1/profiles', { params: { query } })),
    /** A3 for a block of text by one author (or the no-personality answer, data null). */
    analyzeText: (text: string) => unwrap(api.POST('/v1/analysis/text', { body: { text } })),
    /** Uploads a PDF (streamed, never read whole into memory from a path or stream) and answers the analysis id. */
    async uploadPdf(source: PdfSource): Promise<string> {
      const body = await pdfBody(source);
      const answer = await unwrap(api.POST('/v1/analysis/pdf', {
        // The PDF is the body as it is (the route's application/pdf form); a stream needs half duplex.
        body: body as unknown as string,
        bodySerializer: (raw: unknown) => raw,
        headers: { 'content-type': 'application/pdf' },
        duplex: 'half',
      }));
      return answer.data.id;
    },
    /** The analysis as it stands: `{data: {id, status: 'processing'}}` (202) or the result. */
    analysis,
    /** Polls the analysis until it is done; tell a webhook (analysis.finished) apart with verifyWebhook. */
    async waitForAnalysis(id: string, wait: WaitOptions = {}) {
      const started = Date.now();
      const timeoutMs = wait.timeoutMs ?? 300_000;
      for (;;) {
        const answer = await analysis(id);
        if (!isProcessing(answer)) return answer as Exclude<typeof answer, Json<'getAnalysis', 202>>;
        if (Date.now() - started >= timeoutMs) throw new StillProcessingError(id, Date.now() - started);
        await sleep(Math.min(wait.pollIntervalMs ?? 1000, Math.max(0, timeoutMs - (Date.now() - started))), wait.signal);
      }
    },
    webhooks: {
      list: () => unwrap(api.GET('/v1/webhooks')),
      /** Registers an endpoint; the answer's `secret` is shown this once. */
      create: (body: { url: string; events?: Array<'analysis.finished'>; description?: string }) => unwrap(api.POST('/v1/webhooks', { body })),
      remove: (id: string) => unwrap(api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })),
      rotateSecret: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
      enable: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/enable', { params: { path: { id } } })),
      test: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
      deliveries: (id: string) => unwrap(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id } } })),
    },
  };
}

export type EnterpriseClient = ReturnType<typeof enterpriseClient>;
