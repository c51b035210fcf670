// Where a delivery may go (no server-side request forgery). The URL's host is resolved at delivery
// time and every address it resolves to is checked; the delivery then connects to the checked
// address itself (http-poster.ts), so a second lookup cannot point it elsewhere (DNS rebinding).
// Deployed: only public unicast addresses (ipaddr.js's ranges: no loopback, private, link-local
// (169.254.169.254, the metadata service, included), unique-local (fd00:ec2::254), multicast,
// carrier-grade NAT, reserved, unspecified; IPv4-mapped IPv6 is judged as IPv4). Locally
// (WEBHOOK_ALLOWED_DESTINATIONS): exactly the listed host names and addresses, nothing else.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Destination } from '../events/delivery.ts';

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Whether an address is a public unicast one. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export async function checkDestination(
  url: string,
  allowed: string[] | undefined,
  lookup: Lookup = systemLookup,
): Promise<Destination> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return { ok: false, reason: 'The URL cannot be parsed' };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await lookup(host);
  } catch (err) {
    return { ok: false, reason: `The host ${host} does not resolve (${(err as Error).message})` };
  }
  if (addresses.length === 0) return { ok: false, reason: `The host ${host} does not resolve` };
  const refused = allowed
    ? allowed.includes(host)
      ? []
      : addresses.filter((a) => !allowed.includes(a.address.toLowerCase()))
    : addresses.filter((a) => !isPublicAddress(a.address));
  if (refused.length)
    return {
      ok: false,
      reason: allowed
        ? `${host} (${refused[0].address}) is not an allowed destination (WEBHOOK_ALLOWED_DESTINATIONS)`
        : `${host} resolves to ${refused[0].address}, which is not a public address`,
    };
  const first = addresses[0];
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
