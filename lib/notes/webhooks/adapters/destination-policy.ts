// Where a delivery may go (no server-side request forgery). The URL's host is resolved at delivery
// time and every address it resolves to is checked; the delivery then connects to the checked
// address itself (http-poster.ts), so a second lookup cannot point it elsewhere (DNS rebinding).
// Deployed: only public unicast addresses (ipaddr.js's ranges: no loopback, private, link-local
// (169.254.169.254, the metadata service, included), unique-local (fd00:ec2::254), multicast,
// carrier-grade NAT, reserved, unspecified). IPv4-mapped IPv6 (::ffff:a.b.c.d, how a dual-stack
// socket shows an IPv4 peer) is judged as its IPv4 address; any other IPv6 address must be global
// unicast (2000::/3, the only block IANA allocates from), which leaves out every other form that
// embeds an IPv4 address, whatever it embeds: IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated
// (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32):
// a gateway or a host that decodes them would reach the embedded address. Locally
// (WEBHOOK_ALLOWED_DESTINATIONS): exactly the listed host names and addresses, nothing else.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Destination } from '../events/delivery.ts';

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Whether an address is a public unicast one. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

export async function checkDestination(
  url: string,
  allowed: string[] | undefined,
  lookup: Lookup = systemLookup,
): Promise<Destination> {
  let host: string;
  try {
    const parsed = new URL(url);
    // Refused when stored; a URL stored before that would otherwise go to the scheme's port.
    if (parsed.port === '0') return { ok: false, reason: 'Port 0 is not a destination' };
    host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
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
