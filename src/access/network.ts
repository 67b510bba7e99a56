import ipaddr from 'ipaddr.js';

/**
 * The network a client address belongs to, for limits per network: an IPv4 address's /24, an
 * IPv6 address's /64 (one subscriber's usual allocation: counting single IPv6 addresses would
 * let one machine change address for every attempt). IPv4-mapped IPv6 counts as IPv4. Anything
 * that does not parse is its own network.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return `other:${address.slice(0, 100)}`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${parsed.toByteArray().slice(0, 3).join('.')}.0/24`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
