import { BlockList, isIP } from 'node:net';

// TRUST_PROXY's reading, for config.ts: how many proxies, or which addresses, stand before the server.

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: which hops may set X-Forwarded-For. Empty (default): none, the socket address is the
 * client. A number: that many proxies in front. Otherwise addresses, CIDRs or proxy-addr's names
 * (loopback, linklocal, uniquelocal), comma-separated. "true" (trust every hop) is refused: it lets
 * any client choose its own address and dodge every per-address limit. So are ranges that mean the same
 * thing in other words (0.0.0.0/0, ::/0) and ranges too wide to be anyone's proxies (shorter than /8 for
 * IPv4, /16 for IPv6): proxies are a few known machines. A hop count above MAX_PROXY_HOPS is refused
 * (more hops than any real chain trusts every address), and an IPv6 range over IPv4-mapped addresses
 * (::ffff:0:0/96) is judged as the IPv4 range it stands for, since proxy-addr matches IPv4 clients by it.
 */
export function parseTrustProxy(value: string): false | number | string[] | { error: string } {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_PROXY_HOPS) {
      return {
        error: `${text} hops trusts every address, like "true": give the number of proxies in front (at most ${MAX_PROXY_HOPS}) or their addresses`,
      };
    }
    return hops === 0 ? false : hops;
  }
  if (text === 'true') {
    return { error: 'trusting every hop lets any client choose its address; give a hop count or proxy addresses' };
  }
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !PROXY_NAMES.has(entry) && !cidrBits(entry));
  if (bad.length) return { error: `not an address, CIDR or hop count: ${bad.join(', ')}` };
  const everyone = entries.filter((entry) => cidrBits(entry)?.bits === 0);
  if (everyone.length) {
    return {
      error: `${everyone.join(', ')} trusts every address, like "true": any client could choose its address; give a hop count or your proxies' addresses`,
    };
  }
  const wide = entries.filter((entry) => {
    const cidr = cidrBits(entry);
    return cidr && cidr.bits < (cidr.family === 4 ? MIN_IPV4_BITS : MIN_IPV6_BITS);
  });
  if (wide.length) {
    return {
      error: `${wide.join(', ')} is too wide for a list of proxies (at least /${MIN_IPV4_BITS} for IPv4, /${MIN_IPV6_BITS} for IPv6); give your proxies' addresses`,
    };
  }
  return entries;
}

/** The shortest prefixes TRUST_PROXY accepts: 10.0.0.0/8 is a private network, 0.0.0.0/1 half the internet. */
const MIN_IPV4_BITS = 8;
const MIN_IPV6_BITS = 16;

/** More proxies in a row than any real deployment has. */
export const MAX_PROXY_HOPS = 10;

/** IPv4-mapped IPv6 addresses: `::ffff:1.2.3.4` is the IPv4 client 1.2.3.4 to proxy-addr. */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * An address (all its bits) or a CIDR: its family and prefix length; undefined if it is neither. An
 * IPv6 range that holds IPv4-mapped addresses counts as the IPv4 range it covers (all of IPv4 when it
 * holds the whole of ::ffff:0:0/96).
 */
function cidrBits(entry: string): { family: 4 | 6; bits: number } | undefined {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if ((family !== 4 && family !== 6) || rest.length) return undefined;
  const max = family === 4 ? 32 : 128;
  if (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > max)) return undefined;
  const n = bits === undefined ? max : Number(bits);
  if (family === 6) {
    const range = new BlockList();
    range.addSubnet(address, n, 'ipv6');
    if (n <= 96 && range.check('::ffff:0:0', 'ipv6')) return { family: 4, bits: 0 };
    if (n > 96 && IPV4_MAPPED.check(address, 'ipv6')) return { family: 4, bits: n - 96 };
  }
  return { family, bits: n };
}
