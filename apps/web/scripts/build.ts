/**
 * `npm run build` (and `npm start`, which builds first): Vite's production build of the web app, whatever
 * NODE_ENV the caller runs with. NODE_ENV is the server's mode; its default (docs/running.md) is
 * `development`, and Vite, React's JSX transform (jsxDEV) and the PWA plugin all read it, so
 * `NODE_ENV=development npm start` built an unminified development app (sign-in 178 KiB instead of 136).
 * `npm run dev` (Vite's dev server) is the way to a development web app.
 */
import path from 'node:path';
import { build, type InlineConfig } from 'vite';

export const WEB_ROOT = path.resolve(import.meta.dirname, '..');

/** Sets `env` (process.env when building) for a production build and gives Vite's settings for it. */
export function productionBuild(env: NodeJS.ProcessEnv): InlineConfig {
  env.NODE_ENV = 'production';
  return { root: WEB_ROOT, mode: 'production' };
}

if (import.meta.main) {
  await build(productionBuild(process.env));
}
