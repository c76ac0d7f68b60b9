import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Helmet with our content security policy. HTTPS-only headers (HSTS and `upgrade-insecure-requests`)
 * are sent only when the app is served over HTTPS (PUBLIC_URL starts with https:): over plain HTTP
 * on a LAN address they would make the browser fetch every asset over https and show a blank page.
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
    strictTransportSecurity: opts.https ? { maxAge: 180 * 24 * 3600, includeSubDomains: true } : false,
  });
}
