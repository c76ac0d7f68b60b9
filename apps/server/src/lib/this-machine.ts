import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8 and ::1: this machine's own addresses, as a socket's peer. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether a socket's peer address is this machine (`::ffff:127.x.y.z` is IPv4's loopback on a dual-stack socket). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return LOOPBACK.check(mapped, 'ipv4');
  return isIPv4(address) ? LOOPBACK.check(address, 'ipv4') : LOOPBACK.check(address, 'ipv6');
}

/**
 * Headers a proxy adds when it relays a request: any of them means the client may be somewhere else.
 * `Via` alone is what some proxies add (RFC 9110), and any `X-Forwarded-*` counts, not only -For.
 */
const FORWARDING_HEADERS = ['via', 'forwarded', 'x-real-ip'] as const;

/** Whether the request says it came through a proxy. */
export const relayed = (headers: FastifyRequest['headers']) =>
  FORWARDING_HEADERS.some((h) => headers[h] !== undefined) ||
  Object.keys(headers).some((h) => h.startsWith('x-forwarded-'));

/**
 * A client on this machine talking to this process itself: the TCP socket's peer is loopback (never
 * `request.ip`, which follows X-Forwarded-For under TRUST_PROXY) AND the request carries no proxy's
 * header, since a proxy on the same host (Caddy in front of one process) connects from loopback for
 * everyone it relays.
 */
export function fromThisMachine(req: FastifyRequest): boolean {
  return isLoopback(req.raw.socket.remoteAddress) && !relayed(req.headers);
}
