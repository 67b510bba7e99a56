import { describe, expect, it } from 'vitest';
import { monthOf } from '../../src/access/usage.ts';

describe('monthOf', () => {
  it('names the UTC month, zero-padded, whatever the local time zone says', () => {
    expect(monthOf(new Date('2026-01-31T23:59:59.999Z'))).toBe('2026-01');
    expect(monthOf(new Date('2026-02-01T00:00:00Z'))).toBe('2026-02');
    expect(monthOf(new Date('2026-12-15T12:00:00+14:00'))).toBe('2026-12');
    expect(monthOf(new Date('2027-01-01T00:30:00+01:00'))).toBe('2026-12');
  });
});
