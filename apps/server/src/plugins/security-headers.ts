import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Helmet with our content security policy. HTTPS-only headers (HSTS and `upgrade-insecure-requests`)
 * are sent only when the app is served over HTTPS (PUBLIC_URL starts with https:): over plain HTTP
 * on a LAN address they would make the browser fetch every asset over https and show a blank page.
 * HSTS is further sent only on a reply to a request that came over HTTPS (`req.protocol`: the socket,
 * or `X-Forwarded-Proto` from a proxy TRUST_PROXY names), as RFC 6797 asks: never on a plain-HTTP reply.
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { https: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the offline diagnosis compile its WebAssembly runtime (our own file); it
        // does not allow eval() or inline scripts.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: opts.https ? [] : null,
      },
    },
    strictTransportSecurity: false,
  });
  if (!opts.https) return;
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

const HSTS = `max-age=${180 * 24 * 3600}; includeSubDomains`;
