import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/access/network.ts';

describe('clientNetwork (limits per network)', () => {
  it('groups an IPv4 address by its /24 and an IPv6 address by its /64', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.0/24');
    expect(clientNetwork('203.0.113.250')).toBe(clientNetwork('203.0.113.7'));
    expect(clientNetwork('203.0.114.7')).not.toBe(clientNetwork('203.0.113.7'));
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(clientNetwork('2001:db8:1:2::1'));
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(clientNetwork('2001:db8:1:2::1'));
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, and anything else as itself', () => {
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(clientNetwork('unknown')).toBe('other:unknown');
  });
});
