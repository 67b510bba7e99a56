import type { Config } from '../../config.ts';

/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): browsers and
 * Node's own fetch() refuse to connect to them, before any request is sent. A service on one
 * answers curl, but the pages people open (group B's test, the dashboard, profile pages) and
 * callers written with fetch() never reach it.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119,
  123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
  993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export function isRefusedByBrowsers(port: number): boolean {
  return FETCH_BAD_PORTS.has(port);
}

/**
 * A start-up warning for each API port that browsers and fetch() refuse (none for the usual
 * ports). The metrics port is left out: Prometheus does not keep that list.
 */
export function refusedPortWarnings(config: Pick<Config, 'port' | 'connectPort'>): string[] {
  const ports: [string, number][] = [
    ['PORT', config.port],
    ['CONNECT_PORT', config.connectPort],
  ];
  return ports
    .filter(([, port]) => isRefusedByBrowsers(port))
    .map(([name, port]) => `${name} ${port} is a port browsers and fetch() refuse to connect to (the Fetch standard's bad ports): pages and clients written with fetch() cannot reach it; choose another port`);
}
