import { describe, expect, it } from 'vitest';
import { addressPatterns, loadableScreens, screenModulesAt, screensToPreload } from './router.tsx';
import { SCREEN_ADDRESSES } from './screen-addresses.ts';

describe("the server's table of each address's screens (screen-addresses.ts)", () => {
  const patterns = addressPatterns();

  it('says, for every address of the router, the modules the router loads there', () => {
    expect(patterns).toContain('/account/addresses/:id');
    for (const pattern of patterns) {
      const address = pattern.replace(':id', 'a-post-id').replace('*', '/no/such/page');
      expect(SCREEN_ADDRESSES[pattern] ?? [], pattern).toEqual(screenModulesAt(address));
    }
  });

  it('has no address the router does not have, and names modules the router can load', () => {
    expect(Object.keys(SCREEN_ADDRESSES).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
    const loadable = loadableScreens();
    expect(loadable).toContain('features/dashboard/pages/DashboardPage.tsx');
    for (const module of new Set(Object.values(SCREEN_ADDRESSES).flat())) expect(loadable).toContain(module);
  });

  it('is what the first screen preloads, with a preload for each of its modules', () => {
    for (const pattern of patterns) {
      const address = pattern.replace(':id', 'a-post-id').replace('*', '/no/such/page');
      for (const path of address === '/' ? [address] : [address, `${address}/`]) {
        const screens = screensToPreload(path);
        expect(
          screens.map((s) => s.module),
          path,
        ).toEqual(screenModulesAt(address));
        for (const { module, preload } of screens) expect(preload, module).toBeTypeOf('function');
      }
    }
  });
});
