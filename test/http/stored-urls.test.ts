import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/people/import.ts';
import { normalizeWebUrl } from '../../src/people/normalize.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { useEnterpriseService } from '../helpers/service.ts';

/** The characters that used to pass the import and then fail every lookup with a 500. */
const ODD = ['é', '"', '<', '>', '{', '|', '^', '`', '\\', ' ', '}', '%', '#'];

const { service, auth } = useEnterpriseService();
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-urls-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

function lookup(email: string) {
  return service.base.inject({ url: `/v1/profiles?email=${encodeURIComponent(email)}`, headers: auth });
}

describe('URLs that every response can return', () => {
  it('normalises odd characters by percent-encoding, keeps good URLs, refuses what is not a web URL', () => {
    expect(normalizeWebUrl('https://images.example.org/noor.jpg')).toBe('https://images.example.org/noor.jpg');
    expect(normalizeWebUrl('https://img.example.org/José "x" <1>{2}|^`\\.jpg?q=a|b')).toBe(
      'https://img.example.org/Jos%C3%A9%20%22x%22%20%3C1%3E%7B2%7D%7C%5E%60%5C.jpg?q=a%7Cb',
    );
    expect(normalizeWebUrl('https://img.example.org/100%.jpg')).toBe('https://img.example.org/100%25.jpg');
    expect(normalizeWebUrl('https://user:secret@img.example.org/a.jpg')).toBe('https://img.example.org/a.jpg');
    expect(normalizeWebUrl('https://bücher.example/a.jpg')).toBe('https://xn--bcher-kva.example/a.jpg');
    expect(normalizeWebUrl('https://img.example.org/a.jpg#x#y')).toBe('https://img.example.org/a.jpg#x%23y');
    expect(normalizeWebUrl('https://img.example.org/a%23b.jpg#c?d#e f#')).toBe('https://img.example.org/a%23b.jpg#c?d%23e%20f%23');
    const once = normalizeWebUrl('https://img.example.org/é|.jpg');
    expect(normalizeWebUrl(once)).toBe(once);
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://x/y.jpg', 'https://', 'http://exa mple.com/', '/relative.jpg']) {
      expect(normalizeWebUrl(bad)).toBeNull();
    }
  });

  it('imports photo URLs with é " < > { | ^ ` \\ and looks every one of those people up with a 200', async () => {
    const people = ODD.map((c, i) => ({
      email: `odd${i}@example.org`,
      photo_url: `https://img.example.org/p${c}hoto${c}.jpg?size=${c}`,
      linkedin_url: `linkedin.com/in/odd-${i}-jos${c === 'é' ? 'é' : ''}`,
      texts: [{ type: 'various', text: OUTGOING_TEXT }],
    }));
    people.push({ email: 'bad-photo@example.org', photo_url: 'javascript:alert(1)', linkedin_url: 'linkedin.com/in/bad-photo', texts: [] });
    const file = path.join(dir, 'odd.jsonl');
    writeFileSync(file, people.map((p) => JSON.stringify(p)).join('\n'));
    const summary = await importPeople(service.ctx, file);
    expect(JSON.stringify(summary)).toMatch(/photo_url must be an http\(s\) URL/);
    for (let i = 0; i < ODD.length; i += 1) {
      const response = await lookup(`odd${i}@example.org`);
      expect(response.statusCode, `photo URL with ${ODD[i]}`).toBe(200);
      const photo = response.json().data.photo_url as string;
      expect(photo).toMatch(/^https:\/\/img\.example\.org\/p/);
      expect(photo).not.toMatch(/[^\x21-\x7e]|["<>{}|^`\\]/);
      // The encoded form still names the same file.
      expect(decodeURIComponent(photo)).toContain(`p${ODD[i]}hoto${ODD[i]}.jpg`);
    }
    expect((await lookup('bad-photo@example.org')).statusCode).toBe(404);
  });

  it('a bad URL stored before normalisation existed does not make the lookup a 500', async () => {
    await service.ctx.db.query("UPDATE people SET photo_url = $1 WHERE email_normalized = 'odd0@example.org'", ['https://img.example.org/é <x>|^.jpg']);
    const stored = await lookup('odd0@example.org');
    expect(stored.statusCode).toBe(200);
    expect(stored.json().data.photo_url).toBe('https://img.example.org/%C3%A9%20%3Cx%3E%7C%5E.jpg');
    await service.ctx.db.query("UPDATE people SET photo_url = 'https://img.example.org/a.jpg#x#y' WHERE email_normalized = 'odd2@example.org'");
    const hashes = await lookup('odd2@example.org');
    expect(hashes.statusCode).toBe(200);
    expect(hashes.json().data.photo_url).toBe('https://img.example.org/a.jpg#x%23y');
    await service.ctx.db.query("UPDATE people SET photo_url = 'not a url at all' WHERE email_normalized = 'odd1@example.org'");
    const hopeless = await lookup('odd1@example.org');
    expect(hopeless.statusCode).toBe(200);
    expect(hopeless.json().data.photo_url).toBeNull();
  });
});
