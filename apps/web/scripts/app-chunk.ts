/**
 * The full app's chunk (vite.config.ts): app/App.tsx's static imports, which src/main.tsx loads for every
 * address but the sign-in screen's: Mantine's provider and the parts the app's shell uses, React Router,
 * i18next, the router's table. Left to the bundler, they were a dozen small chunks shared with lazy
 * screens, and each account route downloaded ~5 to 13 KiB more than when they were in the entry (brotli
 * compresses each file alone). Out of it: src/main.tsx's modules (the entry's) and the sign-in screen's
 * (it must not download the app).
 *
 * A package's index that re-exports the whole package (Mantine's) is not followed as a whole: only the
 * modules of the names the app imports from it, read from the import statements.
 */
import path from 'node:path';
import type { Rolldown } from 'vite';

type Context = Rolldown.ChunkingContext;

/**
 * Mantine parts nearly every screen after sign-in draws (styles/first-screens.ts holds their CSS, which
 * the app loads): in the app's chunk too, rather than one small chunk each that every screen downloads.
 * They were in the entry, with the sign-in screen, before it went without Mantine.
 */
const EVERY_SCREEN = [
  'Text',
  'Stack',
  'Group',
  'Button',
  'Title',
  'Card',
  'Alert',
  'Anchor',
  'Paper',
  'TextInput',
  'PasswordInput',
  'NativeSelect',
  'Loader',
  'List',
];
/** A package's own index (`@mantine/core/esm/index.mjs`), not an index inside it. */
const isPackageIndex = (id: string) => /node_modules\/(?:@[^/]+\/)?[^/]+\/(?:esm\/)?index\.m?js$/.test(id);
const packageOf = (id: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];

/** Named imports from packages in `code`: package → names. */
function packageImports(code: string): [string, string[]][] {
  return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^./"'][^"']*)["']/g)].map(([, names, from]) => [
    from!
      .split('/')
      .slice(0, from!.startsWith('@') ? 2 : 1)
      .join('/'),
    names!
      .split(',')
      .map((name) => name.trim().split(/\s+as\s+/)[0]!)
      .filter(Boolean),
  ]);
}

/** The module a package index takes `name` from (`import { name } from "./x.mjs"` in the index). */
function moduleOfName(index: string, code: string, name: string): string | undefined {
  for (const [, names, from] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](\.[^"']+)["']/g))
    if (
      names!.split(',').some(
        (n) =>
          n
            .trim()
            .split(/\s+as\s+/)
            .at(-1) === name,
      )
    )
      return path.resolve(path.dirname(index), from!);
  return undefined;
}

/**
 * `roots` and what they import statically, packages' indexes replaced by the modules of the names used
 * (and of `also`: [package, name]).
 */
function staticClosure(roots: string[], ctx: Context, also: [string, string][] = []): Set<string> {
  const found = new Set<string>();
  const indexes = new Map<string, string>(); // package → its index's id
  const wanted: [string, string][] = [...also]; // [package, name]
  const visit = (id: string) => {
    if (found.has(id)) return;
    found.add(id);
    const info = ctx.getModuleInfo(id);
    if (!info || isPackageIndex(id)) return;
    const lazy = new Set(info.dynamicallyImportedIds);
    for (const imported of info.importedIds) {
      if (lazy.has(imported)) continue;
      if (isPackageIndex(imported)) indexes.set(packageOf(imported)!, imported);
      visit(imported);
    }
    for (const [pkg, names] of packageImports(info.code ?? '')) for (const name of names) wanted.push([pkg, name]);
  };
  for (const root of roots) visit(root);
  for (let i = 0; i < wanted.length; i++) {
    const [pkg, name] = wanted[i]!;
    const index = indexes.get(pkg);
    const module = index && moduleOfName(index, ctx.getModuleInfo(index)?.code ?? '', name);
    if (module) visit(module);
  }
  return found;
}

export function appChunk(src: string) {
  const app = path.join(src, 'app/App.tsx');
  let modules: Set<string> | undefined;
  return (id: string, ctx: Context) => {
    if (!modules) {
      const outside = staticClosure(
        [path.join(src, 'main.tsx'), path.join(src, 'features/auth/pages/LoginPage.tsx')],
        ctx,
      );
      const everyScreen = EVERY_SCREEN.map((name): [string, string] => ['@mantine/core', name]);
      modules = new Set(
        [...staticClosure([app], ctx, everyScreen)].filter((m) => !outside.has(m) && !isPackageIndex(m)),
      );
      modules.delete(app); // the chunk src/main.tsx imports, the manifest's key for the app
    }
    return modules.has(id) ? 'app' : null;
  };
}
