import { describe, expect, it } from 'vitest';
import type { Manifest } from 'vite';
import { screenPreloads } from '../../scripts/screen-preloads.ts';

/** A build's manifest as Vite writes it: an entry, two lazy screens sharing chunks, one shared with the entry. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index-e.js', isEntry: true, imports: ['_react-r.js'], css: ['assets/index-e.css'] },
  '_react-r.js': { file: 'assets/react-r.js' },
  'src/app/layout/AccountLayout.tsx': {
    file: 'assets/AccountLayout-a.js',
    imports: ['_react-r.js', '_Card-c.js'],
    css: ['assets/app-screens-s.css'],
  },
  'src/features/dashboard/pages/DashboardPage.tsx': {
    file: 'assets/DashboardPage-d.js',
    imports: ['_Card-c.js', '_Grid-g.js'],
  },
  '_Card-c.js': { file: 'assets/Card-c.js', imports: ['_Paper-p.js'] },
  '_Paper-p.js': { file: 'assets/Paper-p.js', css: ['assets/Paper-p.css'] },
  '_Grid-g.js': { file: 'assets/Grid-g.js' },
};

describe("each address's files (scripts/screen-preloads.ts)", () => {
  it("lists the screens' chunks and styles with everything they import, less what the entry loads", () => {
    const preloads = screenPreloads(manifest, {
      '/account': ['app/layout/AccountLayout.tsx', 'features/dashboard/pages/DashboardPage.tsx'],
    });
    expect(preloads['/account']!.scripts.sort()).toEqual(
      [
        '/assets/AccountLayout-a.js',
        '/assets/Card-c.js',
        '/assets/DashboardPage-d.js',
        '/assets/Grid-g.js',
        '/assets/Paper-p.js',
      ].sort(),
    );
    expect(preloads['/account']!.styles.sort()).toEqual(['/assets/Paper-p.css', '/assets/app-screens-s.css']);
  });

  it('lists nothing for the screens built into the entry, and the rest of an address as before', () => {
    const auth = ['app/layout/AuthLayout.tsx', 'features/auth/pages/LoginPage.tsx'];
    const preloads = screenPreloads(manifest, { '/auth': auth, '/account': ['app/layout/AccountLayout.tsx'] }, auth);
    expect(preloads['/auth']).toEqual({ scripts: [], styles: [] });
    expect(preloads['/account']!.scripts.sort()).toEqual(
      ['/assets/AccountLayout-a.js', '/assets/Card-c.js', '/assets/Paper-p.js'].sort(),
    );
  });

  it('stops the build when a screen meant for the entry was built as a chunk of its own', () => {
    expect(() => screenPreloads(manifest, {}, ['app/layout/AccountLayout.tsx'])).toThrow(
      /app\/layout\/AccountLayout.tsx should be in the entry/,
    );
  });

  it('stops the build when a screen module is not in the manifest', () => {
    expect(() => screenPreloads(manifest, { '/terms': ['features/static/pages/TermsPage.tsx'] })).toThrow(
      /\/terms: features\/static\/pages\/TermsPage.tsx not in the build's manifest/,
    );
  });
});
