import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Rollup, resolveConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { productionBuild } from '../../web/scripts/build.ts';

/** `NODE_ENV=development npm start` once built and served a development web app (jsxDEV). */
describe('the web app build', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = saved;
  });

  /** Builds one React component with Vite and the React plugin, as the app's build does; the output code. */
  async function buildComponent(config: { root?: string; mode?: string }): Promise<string> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-jsx-'));
    try {
      fs.writeFileSync(path.join(dir, 'leaf.jsx'), 'export const Leaf = () => <p className="leaf">Rust</p>;\n');
      const out = (await build({
        ...config,
        root: dir,
        configFile: false,
        logLevel: 'silent',
        plugins: [react()],
        build: {
          write: false,
          minify: false,
          lib: { entry: path.join(dir, 'leaf.jsx'), formats: ['es'] },
          rollupOptions: { external: [/^react/] },
        },
      })) as Rollup.RollupOutput[];
      return out.flatMap((o) => o.output.map((chunk) => ('code' in chunk ? chunk.code : ''))).join('\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('is a production build under NODE_ENV=development (the server default, docs/running.md)', async () => {
    process.env.NODE_ENV = 'development';
    const settings = productionBuild(process.env);
    expect(process.env.NODE_ENV).toBe('production');
    const config = await resolveConfig({ ...settings, logLevel: 'silent' }, 'build');
    expect(config.isProduction).toBe(true);
    expect(config.mode).toBe('production');
    const code = await buildComponent({ mode: settings.mode });
    expect(code).not.toContain('jsxDEV');
    expect(code).toContain('jsx(');
  });

  it('would be a development build without it (what the test guards against)', async () => {
    process.env.NODE_ENV = 'development';
    expect(await buildComponent({ mode: 'production' })).toContain('jsxDEV');
  });
});
