import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  /** The text part, transfer encoding undone. */
  text: string;
  raw: string;
}

export interface SmtpInbox {
  /** SMTP_URL for the service. */
  url: string;
  readonly mails: ReceivedMail[];
  /** The `n`th mail (1-based) to this address, waiting for it up to `timeoutMs`. */
  mailTo(address: string, n?: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** Mails to this address so far. */
  countTo(address: string): number;
  close(): Promise<void>;
}

/** Quoted-printable, as nodemailer writes a text part with long lines: soft breaks and =XX bytes. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(raw: string, to: string[], from: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { to, from, subject: header('Subject'), text, raw };
}

/** A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives. No TLS, no auth. */
export async function startSmtp(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push(parse(Buffer.concat(chunks).toString('latin1'), to, from));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    countTo: (address) => to(address).length,
    async mailTo(address, n = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = to(address)[n - 1];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail number ${n} to ${address} within ${timeoutMs} ms (${mails.length} mails in all)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The confirmation link in a mail: an absolute URL ending in /confirm/<secret>. */
export function confirmLinkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+\/confirm\/[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no confirmation link in the mail "${mail.subject}"`);
  return match[0];
}
