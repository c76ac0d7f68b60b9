import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import {
  addressPattern,
  SCREEN_PRELOADS_FILE,
  type ScreenPreloads,
  withScreenPreloads,
} from '@kutu/contract/screen-preloads';
import { message } from '../i18n/i18n.ts';
import { notFound } from '../lib/errors.ts';

/**
 * index.html for each address, with the address's screen files as preload links (the same as the
 * service worker sends, @kutu/contract/screen-preloads). Built once per address pattern.
 */
function indexPages(webDist: string): (pathname: string) => string {
  const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const file = path.join(webDist, SCREEN_PRELOADS_FILE);
  const preloads: ScreenPreloads = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const patterns = Object.keys(preloads);
  const pages = new Map<string | undefined, string>();
  return (pathname) => {
    const pattern = addressPattern(pathname, patterns);
    let page = pages.get(pattern);
    if (page === undefined) {
      page = withScreenPreloads(html, pathname, preloads);
      pages.set(pattern, page);
    }
    return page;
  };
}

/** Vite puts content-hashed files here: a new build gives them new names, so they never change. */
const HASHED_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA, brotli or gzip files as the browser accepts (`Vary: Accept-Encoding`). Hashed
 * `/assets/*` are cached for a year; everything else (index.html above all) is revalidated on each load so
 * a new release is picked up. Unknown non-API GET (and HEAD) paths get index.html, with the address's preload links,
 * so client routes work on reload; but a missing asset is a 404: answering it with HTML would hide a stale
 * page's broken reference behind a MIME error.
 */
export function registerWebApp(app: FastifyInstance, webDist: string) {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  const hashedRoot = path.join(webDist, HASHED_DIR) + path.sep;
  const indexPage = hasWeb ? indexPages(webDist) : () => '';
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
      hasWeb &&
      // HEAD as GET without the body (Node leaves it out): monitors and link checkers ask with HEAD.
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.url.startsWith('/api/') &&
      !req.url.startsWith(`/${HASHED_DIR}/`);
    if (!spaRoute) {
      // The error handler writes it in the caller's language.
      throw notFound(message('errors.noRoute', { method: req.method, url: req.url }));
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexPage(req.url.split('?')[0]!));
  });
}
