import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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

/** An address's index.html, and its brotli and gzip copies where they are smaller. */
interface IndexPage {
  html: string;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * index.html for each address, with the address's screen files as preload links (the same as the
 * service worker sends, @kutu/contract/screen-preloads). Built and compressed once per address pattern:
 * the first thing a phone downloads was the one text file the server sent uncompressed (5.7 KB, 2.3 as brotli).
 */
function indexPages(webDist: string): (pathname: string) => IndexPage {
  const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const file = path.join(webDist, SCREEN_PRELOADS_FILE);
  const preloads: ScreenPreloads = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const patterns = Object.keys(preloads);
  const pages = new Map<string | undefined, IndexPage>();
  return (pathname) => {
    const pattern = addressPattern(pathname, patterns);
    let page = pages.get(pattern);
    if (page === undefined) {
      const text = withScreenPreloads(html, pathname, preloads);
      const bytes = Buffer.byteLength(text);
      const smaller = (b: Buffer) => (b.length < bytes ? b : undefined);
      page = {
        html: text,
        br: smaller(zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })),
        gzip: smaller(zlib.gzipSync(text, { level: 9 })),
      };
      pages.set(pattern, page);
    }
    return page;
  };
}

/** The encoding of `page` to send for this Accept-Encoding: brotli, then gzip, each unless refused (q=0). */
function encodingFor(page: IndexPage, acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name),
  );
  if (page.br && accepted.has('br')) return 'br';
  if (page.gzip && accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Headers a hashed script, style sheet or wasm needs not carry: those that apply to a document (or a worker)
 * only, and the validators and ranges of a file that is never revalidated (immutable, a year). On
 * HTTP/1.1 each reply repeats them (about 650 of a reply's 1,000 header bytes): the sign-up screen's 45
 * scripts and styles paid 29 KB for them on a first visit (a request id names the request in the log). Their content type, encoding, `Vary`,
 * `nosniff`, `Cross-Origin-Resource-Policy` and `Referrer-Policy` (which a style sheet's requests follow) stay.
 */
const NOT_FOR_SUBRESOURCES = [
  'accept-ranges',
  'etag',
  'last-modified',
  'x-request-id',
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;
const SUBRESOURCE = /\.(js|css|wasm)(\.br|\.gz)?$/;

/** Vite puts content-hashed files here: a new build gives them new names, so they never change. */
const HASHED_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The icons beside index.html (favicon, home-screen icons) keep their names across releases: a day,
 * rather than a revalidation each time a page names one (three times on a first visit to sign-up).
 */
const ICON = /\.(svg|png)(\.br|\.gz)?$/;
const ICON_CACHE = 'public, max-age=86400';

/**
 * Serves the built SPA, brotli or gzip files as the browser accepts (`Vary: Accept-Encoding`). Hashed
 * `/assets/*` are cached for a year, the icons beside index.html a day; everything else (index.html above
 * all) is revalidated on each load so a new release is picked up. Unknown non-API GET (and HEAD) paths get index.html, with the address's preload links,
 * so client routes work on reload; but a missing asset is a 404: answering it with HTML would hide a stale
 * page's broken reference behind a MIME error.
 */
export function registerWebApp(app: FastifyInstance, webDist: string) {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  const hashedRoot = path.join(webDist, HASHED_DIR) + path.sep;
  const indexPage = hasWeb ? indexPages(webDist) : (): IndexPage => ({ html: '' });
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes .br and .gz beside each text file (apps/web/scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(hashedRoot);
        reply.header('cache-control', hashed ? IMMUTABLE : ICON.test(filePath) ? ICON_CACHE : 'no-cache');
        if (hashed && SUBRESOURCE.test(filePath)) for (const name of NOT_FOR_SUBRESOURCES) reply.removeHeader(name);
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
    const page = indexPage(req.url.split('?')[0]!);
    const encoding = encodingFor(page, req.headers['accept-encoding']);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (!encoding) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  });
}
