import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../config.ts';
import { loadOnUse } from '../shared/load-on-use.ts';
import type { Logger } from '../shared/logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends the service's few mails (confirmation links, a sign-up notice). `send` does not wait:
 * a request answers the same whether or not, and however fast, a mail goes out, so neither
 * the answer nor its timing tells anything, and a slow mail server never holds a request. A
 * failure is logged (without the address) and the person asks again.
 */
export interface Mailer {
  /** False where SMTP_URL is not set: nothing can be confirmed by mail. */
  readonly enabled: boolean;
  send(message: MailMessage): void;
  /** Resolves when every mail handed over so far has been sent or has failed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Where no SMTP server is configured. */
export class NoMailer implements Mailer {
  readonly enabled = false;
  send(): void {
    throw new Error('No mail server is configured (SMTP_URL): nothing may be sent.');
  }
  async idle(): Promise<void> {}
  async close(): Promise<void> {}
}

const CLOSE_WAIT_MS = 5000;

/** What of a failed send may be logged: codes only (a server's message may quote the address). */
function failureOf(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { reason: 'unknown' };
  const { code, responseCode, command } = error as { code?: unknown; responseCode?: unknown; command?: unknown };
  return { code, responseCode, command };
}

/** SMTP through nodemailer, configured by SMTP_URL (user, password and options such as `?requireTLS=true` in the URL). */
export class SmtpMailer implements Mailer {
  readonly enabled = true;
  private readonly transport: Transporter;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly config: MailConfig, private readonly logger: Logger) {
    // nodemailer (~40 modules) loads only where SMTP_URL is set.
    const { createTransport } = loadOnUse('nodemailer') as typeof Nodemailer;
    this.transport = createTransport(config.smtpUrl);
  }

  send(message: MailMessage): void {
    const sending = this.transport
      // The recipient as an address object: nodemailer then parses nothing in it (no list, no name).
      .sendMail({ from: this.config.from, to: { name: '', address: message.to }, subject: message.subject, text: message.text })
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ mail: failureOf(error), subject: message.subject }, 'a mail could not be sent'),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Waits for mails in flight, a few seconds at most (a stalled mail server must not hold a stop). */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    this.transport.close();
  }
}

export function createMailer(config: MailConfig | null, logger: Logger): Mailer {
  return config ? new SmtpMailer(config, logger) : new NoMailer();
}
