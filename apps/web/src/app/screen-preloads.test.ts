import { describe, expect, it } from 'vitest';
import type { Manifest } from 'vite';
import { screenPreloads } from '../../scripts/screen-preloads.ts';
import { ADDRESS_MODULES } from './screen-addresses.ts';

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

  it("lists the full app's files at every address but the sign-in screen's", () => {
    const withApp: Manifest = {
      ...manifest,
      'src/app/App.tsx': { file: 'assets/App-x.js', imports: ['_react-r.js', '_app-y.js'] },
      '_app-y.js': { file: 'assets/app-y.js', css: ['assets/app-y.css'] },
      'src/features/auth/pages/LoginPage.tsx': { file: 'assets/LoginPage-l.js', imports: ['_react-r.js'] },
    };
    const preloads = screenPreloads(withApp, {
      '/auth': ADDRESS_MODULES['/auth']!,
      '/account/settings': ADDRESS_MODULES['/account/settings']!,
    });
    expect(preloads['/auth']).toEqual({ scripts: ['/assets/LoginPage-l.js'], styles: [] });
    expect(preloads['/account/settings']!.scripts.sort()).toEqual(
      [
        '/assets/App-x.js',
        '/assets/AccountLayout-a.js',
        '/assets/Card-c.js',
        '/assets/Paper-p.js',
        '/assets/app-y.js',
      ].sort(),
    );
    expect(preloads['/account/settings']!.styles.sort()).toEqual(
      ['/assets/Paper-p.css', '/assets/app-screens-s.css', '/assets/app-y.css'].sort(),
    );
  });

  it('stops the build when a screen module is not in the manifest', () => {
    expect(() => screenPreloads(manifest, { '/terms': ['features/static/pages/TermsPage.tsx'] })).toThrow(
      /\/terms: features\/static\/pages\/TermsPage.tsx not in the build's manifest/,
    );
  });
});
