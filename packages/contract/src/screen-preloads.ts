/**
 * Each address's screen files as preload links in index.html (decision 0016). The web build
 * writes the table (`screen-preloads.json`, apps/web/scripts/screen-preloads.ts); the server and the
 * service worker both answer an address with index.html plus that address's links, so the browser
 * fetches the screen while the entry loads and Vite's preload helper, finding them, appends none.
 */
export interface ScreenFiles {
  scripts: string[];
  styles: string[];
}
/** Address pattern (React Router's, e.g. `/account/addresses/:id`, `*`) → the files it loads. */
export type ScreenPreloads = Record<string, ScreenFiles>;
export const SCREEN_PRELOADS_FILE = 'screen-preloads.json';

/**
 * The router's pattern for `pathname` among `patterns` as React Router ranks them: the same path, then a
 * pattern whose `:param` segments fill the differences, then `*`.
 */
export function addressPattern(pathname: string, patterns: string[]): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (patterns.includes(path)) return path;
  const segments = path.split('/');
  const withParams = patterns.find((pattern) => {
    const parts = pattern.split('/');
    return (
      pattern.includes('/:') &&
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))
    );
  });
  return withParams ?? (patterns.includes('*') ? '*' : undefined);
}

/**
 * `html` with the scripts of `pathname`'s screen as `modulepreload` links and its styles as `preload`
 * ones: applied styles in the head would hold up the boot shell's first paint.
 */
export function withScreenPreloads(html: string, pathname: string, preloads: ScreenPreloads): string {
  const pattern = addressPattern(pathname, Object.keys(preloads));
  const files = pattern ? preloads[pattern]! : { scripts: [], styles: [] };
  const links = [
    ...files.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    ...files.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
  ].join('');
  return html.replace('</head>', `${links}</head>`);
}
