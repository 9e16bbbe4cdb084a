// Where an account the page connects may live (Node, main process): on the internet only. A page
// (or a bug in it) must not point Pressroom's requests, with a token, at this computer or its
// local network, where services answer that never expected a browser's user to reach them. The
// command line's --api-base and the demo workspace are not asked: they may use a local platform.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** This computer, private networks, link-local, carrier-grade NAT and the unspecified address. */
const LOCAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127], // :: and ::1
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv6');

/** True for an address on this computer or a local network (IPv4-mapped IPv6 included). */
export function isLocalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return LOCAL.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 0 ? false : LOCAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why the page may not connect to `apiBase`, or null: its host is, or resolves to, an address on
 * this computer or a local network. A name that does not resolve is left to the token check,
 * which says the platform did not answer.
 */
export async function localPlatformProblem(apiBase: string): Promise<string | null> {
  const hostname = new URL(apiBase).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(hostname) !== 0) addresses = [hostname];
  else if (hostname === 'localhost' || hostname.endsWith('.localhost')) addresses = ['127.0.0.1'];
  else {
    try {
      addresses = (await lookup(hostname, { all: true })).map((found) => found.address);
    } catch {
      return null;
    }
  }
  return addresses.some(isLocalAddress)
    ? 'is on this computer or its local network; the app connects to a platform on the internet only (the command line takes a local one with --api-base)'
    : null;
}
