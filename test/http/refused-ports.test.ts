import { describe, expect, it } from 'vitest';
import { isRefusedByBrowsers, refusedPortWarnings } from '../../src/http/common/refused-ports.ts';

describe('ports browsers and fetch() refuse', () => {
  it('are each refused by Node’s own fetch() before it connects', async () => {
    // fetch() checks the port before it opens a connection: nothing listens, nothing is sent.
    const refusedByFetch = async (port: number) => {
      try {
        await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
        return false;
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause;
        return cause?.message === 'bad port';
      }
    };
    const listed = Array.from({ length: 65_535 }, (_, n) => n + 1).filter(isRefusedByBrowsers);
    expect(listed).toEqual(expect.arrayContaining([1, 25, 6000, 10080]));
    expect(listed.length).toBeGreaterThan(80);
    // Each is refused before a connection is opened (nothing on loopback is reached).
    const refused = await Promise.all(listed.map(refusedByFetch));
    // 4190 and 6679 joined the standard's list in 2024; an older Node 20 (engines allows 20.11)
    // may not refuse them yet. The Node this project is tested on refuses every one.
    const newer = new Set([4190, 6679]);
    expect(listed.filter((port, n) => !refused[n] && !newer.has(port))).toEqual([]);
    for (const port of [3000, 8080, 10081, 9181]) expect(isRefusedByBrowsers(port)).toBe(false);
  });

  it('give the service a start-up warning for each API port on the list, naming the setting', () => {
    expect(refusedPortWarnings({ port: 3000, connectPort: 3001 })).toEqual([]);
    const warnings = refusedPortWarnings({ port: 10080, connectPort: 6000 });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^PORT 10080 is a port browsers and fetch\(\) refuse/);
    expect(warnings[1]).toMatch(/^CONNECT_PORT 6000 /);
  });
});
