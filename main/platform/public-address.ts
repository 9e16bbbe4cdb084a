// Where an account the page connects may live (Node, main process): on the internet only. A page
// (or a bug in it) must not point Pressroom's requests, with a token, at this computer or its
// local network, where services answer that never expected a browser's user to reach them. The
// command line's --api-base and the demo workspace are not asked: they may use a local platform.
// The address is checked when the page connects, and again at every connection the account's
// requests make (publicOnlyFetch): a name may resolve elsewhere later, and a read may redirect.
import { lookup as lookupCallback } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { LOCAL_ADDRESS_REFUSED } from './errors';
import { httpFetch } from './http-fetch';

/**
 * This computer, private networks, link-local, carrier-grade NAT and the unspecified address, and
 * what is no platform anywhere: benchmarking, multicast, reserved and broadcast addresses.
 */
const LOCAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127], // :: and ::1
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv6');

/** An IPv6 address's 16 bytes (its text as isIP accepts it, a dotted IPv4 tail included). */
function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = (part: string | undefined) =>
    !part
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const before = groups(head);
  const after = groups(tail);
  const words = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/**
 * The IPv4 address an IPv6 one carries and reaches: IPv4-mapped (::ffff:0:0/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and the old IPv4-compatible form (::/96); null for others.
 */
function carriedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const prefix = (words: number[]) => words.every((word, i) => (bytes[i] ?? -1) === word);
  let at: number | null = null;
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) at = 12;
  else if (prefix([0x00, 0x64, 0xff, 0x9b]) && zeros(4, 12)) at = 12;
  else if (prefix([0x20, 0x02])) at = 2;
  else if (zeros(0, 12) && !zeros(12, 15)) at = 12;
  return at === null ? null : bytes.slice(at, at + 4).join('.');
}

/** True for an address on this computer or a local network, or one that is no platform's. */
export function isLocalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return LOCAL.check(address, 'ipv4');
  if (family === 0) return false;
  const carried = carriedIpv4(address);
  return LOCAL.check(address, 'ipv6') || (carried !== null && LOCAL.check(carried, 'ipv4'));
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

/** A connection refused because its address is this computer's or a local network's. */
class LocalAddressRefused extends Error {
  readonly code = LOCAL_ADDRESS_REFUSED;
  constructor(host: string) {
    super(`${host} is on this computer or its local network`);
  }
}

/** What a public-only fetch asks of the network; the system's, unless a test stands in. */
export interface AddressPolicy {
  /** Resolves a name, as dns.lookup. */
  resolve?: typeof lookupCallback;
  /** Whether an address may not be connected to. */
  isLocal?: (address: string) => boolean;
}

/** Looks a name up as dns.lookup does, and fails when any address it has is local. */
function publicLookup(
  resolve: typeof lookupCallback,
  isLocal: (address: string) => boolean,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (found.length === 0 || found.some((entry) => isLocal(entry.address)))
        return callback(new LocalAddressRefused(hostname), '', 0);
      if (options.all) return (callback as (e: null, all: LookupAddress[]) => void)(null, found);
      const [first] = found as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/**
 * A fetch whose every connection goes to a public address only: the address is checked as the
 * socket is opened, so a name that resolves to a local address since the page's check (DNS
 * rebinding) and a redirect to a local address are refused alike, before a byte is sent.
 */
export function publicOnlyFetch(policy: AddressPolicy = {}): typeof fetch {
  const { resolve = lookupCallback, isLocal = isLocalAddress } = policy;
  return httpFetch({
    lookup: publicLookup(resolve, isLocal),
    refuseAddress: (address) => (isLocal(address) ? new LocalAddressRefused(address) : null),
  });
}
