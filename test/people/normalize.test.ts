import { describe, expect, it } from 'vitest';
import { linkedinKey, normalizeEmail } from '../../src/people/normalize.ts';

describe('linkedinKey', () => {
  const janeVariants = [
    'http://linkedin.com/in/Jane-Doe/?trk=x',
    'https://www.linkedin.com/in/jane-doe',
    'linkedin.com/in/jane%2Ddoe',
    'https://www.linkedin.com/in/jane-doe/',
    'HTTPS://WWW.LINKEDIN.COM/IN/JANE-DOE',
    'www.linkedin.com/in/jane-doe?originalSubdomain=uk',
    'https://uk.linkedin.com/in/jane-doe',
    'https://de.linkedin.com/in/jane-doe/#experience',
    'https://m.linkedin.com/in/jane-doe',
    'https://mobile.linkedin.com/in/jane-doe/',
    'https://www.linkedin.com/mwlite/in/jane-doe',
    '  https://www.linkedin.com/in/jane-doe  ',
    '//www.linkedin.com/in/jane-doe',
    'https://www.linkedin.com//in//jane-doe//',
    'https://www.linkedin.com/in/jane-doe/en',
    'https://www.linkedin.com/in/jane-doe/details/experience/',
    'https://www.linkedin.com/in/%6A%61%6E%65-doe',
    'https://www.linkedin.com:443/in/jane-doe',
  ];

  it.each(janeVariants)('%s → in/jane-doe', (url) => {
    expect(linkedinKey(url)).toBe('in/jane-doe');
  });

  it('decodes percent-encoded unicode and matches the raw form, in either case and normal form', () => {
    const key = 'in/jürgen-müller';
    expect(linkedinKey('https://www.linkedin.com/in/j%C3%BCrgen-m%C3%BCller/')).toBe(key);
    expect(linkedinKey('https://www.linkedin.com/in/J%C3%9Crgen-M%C3%BCller')).toBe(key);
    expect(linkedinKey('linkedin.com/in/jürgen-müller')).toBe(key);
    // u + combining diaeresis (NFD) is the same name.
    expect(linkedinKey('linkedin.com/in/ju\u0308rgen-mu\u0308ller')).toBe(key);
    expect(linkedinKey('https://www.linkedin.com/in/%E7%8E%8B%E5%B0%8F%E6%98%8E')).toBe('in/王小明');
  });

  it('keeps legacy /pub/ profiles with their id parts', () => {
    expect(linkedinKey('http://www.linkedin.com/pub/John-Smith/12/3ab/456')).toBe('pub/john-smith/12/3ab/456');
    expect(linkedinKey('https://uk.linkedin.com/pub/john-smith/12/3ab/456/')).toBe('pub/john-smith/12/3ab/456');
    expect(linkedinKey('https://www.linkedin.com/pub/john-smith')).toBeNull();
    expect(linkedinKey('https://www.linkedin.com/pub/dir/john/smith')).toBeNull();
  });

  it.each([
    'https://example.com/in/jane-doe',
    'https://linkedin.com.evil.example/in/jane-doe',
    'https://notlinkedin.com/in/jane-doe',
    'https://www.linkedin.com/company/acme',
    'https://www.linkedin.com/in/',
    'https://www.linkedin.com/',
    'https://www.linkedin.com/feed/',
    'https://www.linkedin.com/profile/view?id=12345',
    'https://www.linkedin.com/in/jane%2Fdoe',
    'https://www.linkedin.com/in/%E0%A4%A',
    'https://www.linkedin.com/in/jane doe',
    'https://www.linkedin.com/in/---',
    'ftp://www.linkedin.com/in/jane-doe',
    'javascript:alert(1)',
    'jane-doe',
    '',
    '   ',
    `https://www.linkedin.com/in/${'a'.repeat(101)}`,
  ])('%s → null', (url) => {
    expect(linkedinKey(url)).toBeNull();
  });

  it('accepts non-strings as "no key"', () => {
    expect(linkedinKey(null)).toBeNull();
    expect(linkedinKey(undefined)).toBeNull();
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
    expect(normalizeEmail('jane+news@example.org')).toBe('jane+news@example.org');
    expect(normalizeEmail("o'brien@sub.example.co.uk")).toBe("o'brien@sub.example.co.uk");
    expect(normalizeEmail('Jürgen@Bücher.example')).toBe('jürgen@bücher.example');
  });

  it.each(['', '   ', 'jane', 'jane@', '@example.com', 'jane@example', 'jane@@example.com', 'ja ne@example.com', 'jane@exa mple.com', '.jane@example.com', 'jane.@example.com', 'ja..ne@example.com', 'jane@-example.com', 'jane@example..com', 'jane@example.c', '<jane@example.com>', `${'a'.repeat(65)}@example.com`, `jane@${'a'.repeat(250)}.com`])(
    '%s → null',
    (email) => {
      expect(normalizeEmail(email)).toBeNull();
    },
  );

  it('accepts non-strings as "no address"', () => {
    expect(normalizeEmail(null)).toBeNull();
    expect(normalizeEmail(undefined)).toBeNull();
  });
});
