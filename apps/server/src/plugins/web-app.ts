import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { message } from '../i18n/i18n.ts';
import { notFound } from '../lib/errors.ts';

/** Vite puts content-hashed files here: a new build gives them new names, so they never change. */
const HASHED_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA, brotli or gzip files as the browser accepts (`Vary: Accept-Encoding`). Hashed `/assets/*` are cached for a year; everything else (index.html above
 * all) is revalidated on each load so a new release is picked up. Unknown non-API GET paths get
 * index.html so client routes work on reload, but a missing asset is a 404: answering it with HTML
 * would hide a stale page's broken reference behind a MIME error.
 */
export function registerWebApp(app: FastifyInstance, webDist: string) {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  const hashedRoot = path.join(webDist, HASHED_DIR) + path.sep;
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes .br and .gz beside each text file (apps/web/scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', filePath.startsWith(hashedRoot) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const spaRoute =
      hasWeb && req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith(`/${HASHED_DIR}/`);
    if (!spaRoute) {
      // The error handler writes it in the caller's language.
      throw notFound(message('errors.noRoute', { method: req.method, url: req.url }));
    }
    return reply.type('text/html').sendFile('index.html');
  });
}
