/**
 * A user's test takers as CSV (RFC 4180, CRLF line ends, UTF-8 with a byte-order mark so that
 * spreadsheet programs read accents right). A cell that a spreadsheet would run as a formula
 * (one starting with =, +, -, @, a tab or a carriage return: names and roles are typed by others)
 * is written with a leading apostrophe, which shows it as text.
 */
export interface TakerCsvRow {
  takenAt: Date;
  firstName: string | null;
  lastName: string | null;
  email: string;
  discType: string;
  archetype: string;
  role: string | null;
  /** The person's profile page once they confirmed their address; null before. */
  profileUrl: string | null;
}

const HEADER = ['taken_at', 'first_name', 'last_name', 'email', 'disc_type', 'archetype', 'hiring_role', 'profile_url'];

function cell(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function takersCsv(rows: readonly TakerCsvRow[]): string {
  const lines = [HEADER.join(',')];
  for (const r of rows) {
    lines.push([r.takenAt.toISOString(), r.firstName, r.lastName, r.email, r.discType, r.archetype, r.role, r.profileUrl].map(cell).join(','));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
