import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal, checkWebhookUrl, parseWebhookUrl, resolveAllowed, type Resolver } from '../../src/webhooks/address-check.ts';
import { WebhookSender } from '../../src/webhooks/sender.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { useTestService } from '../helpers/service.ts';

/*
 * Where webhooks may go. Other address ranges are tried on the check itself with a stubbed
 * resolver: nothing here connects anywhere but to a receiver on loopback.
 */

/** A resolver that answers from a table and records what it was asked. */
function stubResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
  return Object.assign(resolve, { asked });
}

describe('the address check', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.20', 'private'],
    ['fd12:3456::1', 'private (unique local)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['198.18.0.1', 'special-purpose'],
    ['64:ff9b::7f00:1', 'special-purpose'],
  ])('refuses %s as %s unless private addresses are allowed', (address, said) => {
    expect(addressRefusal(address, false)).toContain(said);
    expect(addressRefusal(address, true)).toBeNull();
  });

  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s) even where private addresses are allowed', (address, said) => {
    expect(addressRefusal(address, true)).toContain(said);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('lets the public address %s through', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });

  it('checks every address a name resolves to, after resolving it', async () => {
    const resolve = stubResolver({
      'hooks.example.com': ['93.184.216.34'],
      'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
      'rebind.example.com': ['127.0.0.1'],
      'cloud.example.com': ['169.254.169.254'],
      'v6.example.com': ['::ffff:192.168.0.1'],
    });
    const policy = { allowPrivate: false, resolve };
    expect(await resolveAllowed(new URL('https://hooks.example.com/x'), policy)).toEqual(['93.184.216.34']);
    await expect(resolveAllowed(new URL('https://sneaky.example.com/x'), policy)).rejects.toThrow('sneaky.example.com resolves to 10.0.0.7 is a private address');
    await expect(resolveAllowed(new URL('https://rebind.example.com/x'), policy)).rejects.toThrow('loopback');
    await expect(resolveAllowed(new URL('https://v6.example.com/x'), policy)).rejects.toThrow('192.168.0.1 is a private');
    await expect(resolveAllowed(new URL('https://cloud.example.com/x'), { ...policy, allowPrivate: true })).rejects.toThrow('metadata');
    await expect(resolveAllowed(new URL('https://missing.example.com/x'), policy)).rejects.toThrow('does not resolve');
  });

  it('refuses metadata names without asking the resolver', async () => {
    const resolve = stubResolver({});
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata', 'instance-data']) {
      await expect(resolveAllowed(new URL(`http://${host}/computeMetadata/v1/`), { allowPrivate: true, resolve })).rejects.toThrow('cloud metadata name');
    }
    expect(resolve.asked).toEqual([]);
  });

  it('takes IP literals as they are, however they are spelt', async () => {
    const resolve = stubResolver({});
    const policy = { allowPrivate: false, resolve };
    for (const url of ['https://127.0.0.1/', 'https://2130706433/', 'https://0x7f.0.0.1/', 'https://[::1]/', 'https://[::ffff:7f00:1]/', 'https://017700000001/']) {
      await expect(resolveAllowed(parseWebhookUrl(url, false), policy), url).rejects.toThrow('loopback');
    }
    expect(resolve.asked).toEqual([]);
  });

  it('wants https, a host and no credentials', () => {
    expect(() => parseWebhookUrl('http://hooks.example.com/x', false)).toThrow('https://');
    expect(parseWebhookUrl('http://hooks.example.com/x', true).href).toBe('http://hooks.example.com/x');
    expect(() => parseWebhookUrl('ftp://hooks.example.com/x', true)).toThrow('https:// or http://');
    expect(() => parseWebhookUrl('https://user:pw@hooks.example.com/x', false)).toThrow('user name or password');
    expect(() => parseWebhookUrl('not a url', false)).toThrow('not a URL');
    expect(() => parseWebhookUrl(`https://hooks.example.com/${'a'.repeat(2000)}`, false)).toThrow('longer than');
    expect(parseWebhookUrl('https://hooks.example.com/x#frag', false).href).toBe('https://hooks.example.com/x');
  });

  it('stores the URL normalised once it passes', async () => {
    const resolve = stubResolver({ 'hooks.example.com': ['93.184.216.34'] });
    expect(await checkWebhookUrl(' https://HOOKS.example.com/in?x=1 ', { allowPrivate: false, resolve })).toBe('https://hooks.example.com/in?x=1');
  });
});

describe('an attempt to an address that is not allowed', () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await startReceiver();
  });
  afterAll(async () => {
    await hook.close();
  });

  it('never connects: a loopback receiver gets nothing, and a name resolving to a private address is not tried', async () => {
    const sender = new WebhookSender({ allowPrivate: false, resolve: stubResolver({ 'internal.example.com': ['10.20.30.40'] }) }, 1000);
    try {
      const loopback = await sender.send(hook.url, {}, '{}');
      expect(loopback).toMatchObject({ ok: false, status: null });
      expect(loopback.error).toContain('127.0.0.1 is a loopback address');
      const named = await sender.send('https://internal.example.com/hook', {}, '{}');
      expect(named.error).toContain('internal.example.com resolves to 10.20.30.40 is a private address');
      expect(hook.received).toHaveLength(0);
    } finally {
      sender.close();
    }
  });

  it('goes to the address it checked, not to whatever the name resolves to next', async () => {
    // A resolver that gives the loopback receiver's address once, then another: the request is pinned to the first.
    let calls = 0;
    const resolve: Resolver = async () => (calls++ === 0 ? ['127.0.0.1'] : ['10.9.9.9']);
    const sender = new WebhookSender({ allowPrivate: true, resolve }, 2000);
    try {
      const result = await sender.send(`http://receiver.test:${hook.port}/pinned`, {}, '{}');
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(calls).toBe(1);
      expect(hook.received.at(-1)?.path).toBe('/pinned');
      expect(hook.received.at(-1)?.headers.host).toBe(`receiver.test:${hook.port}`);
    } finally {
      sender.close();
    }
  });
});

describe('registering through HTTP where private addresses are not allowed', () => {
  const service = useTestService();
  let hook: Receiver;
  let org: Record<string, string>;
  beforeAll(async () => {
    hook = await startReceiver();
    org = { 'x-org-token': (await service.token('connect')).secret };
  });
  afterAll(async () => {
    await hook?.close();
  });

  it.each([
    ['the loopback receiver by address', (port: number) => `https://127.0.0.1:${port}/hook`, 'loopback'],
    ['a name that resolves to loopback', (port: number) => `https://localhost:${port}/hook`, 'localhost resolves to'],
    ['an IPv6 loopback', (port: number) => `https://[::1]:${port}/hook`, 'loopback'],
    ['the metadata service', () => 'https://169.254.169.254/latest/meta-data/', 'metadata'],
    ['plain http', (port: number) => `http://127.0.0.1:${port}/hook`, 'https://'],
  ])('refuses %s with a 400 that says why', async (_what, url, said) => {
    const response = await service.connect.inject({ method: 'POST', url: '/v1/webhooks', headers: org, payload: { url: url(hook.port) } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(said);
    expect(hook.received).toHaveLength(0);
  });
});
