// The esbuild plugin both builds share (the runtime in dist/, the tests once per run): every import
// stays external, and a relative TypeScript import is rewritten to its `.js` output, which exists
// only when the file lies in one of the compiled folders.
import { join, relative, resolve, sep } from 'node:path';

/**
 * The esbuild options both builds share: ESM for Node 20, with linked source maps (no sources
 * inlined). Bundle mode is on only for its resolve hook; keepImports keeps every import external.
 */
export const NODE_ESM_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
};

export const inside = (dir, file) => file === dir || file.startsWith(dir + sep);

/**
 * `root`: the repository; `compiled`: the folders (relative to root) the build compiles; `what`:
 * how the error names the build, e.g. "for the tests".
 */
export function keepImports({ root, compiled, what }) {
  const dirs = compiled.map((d) => join(root, d));
  return {
    name: 'keep-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const spec = args.path;
        // node:, packages, package subpaths, and .js/.json paths that are the same from the output
        if (!spec.startsWith('.') || !/\.[cm]?tsx?$/.test(spec)) return { path: spec, external: true };
        const target = resolve(args.resolveDir, spec);
        // A type-only import (generated/*/types.ts) is erased before it gets here; a value import
        // of a TypeScript file outside the compiled folders would have no compiled counterpart.
        if (!dirs.some((d) => inside(d, target))) {
          return { errors: [{ text: `import of ${relative(root, target)} (outside ${compiled.join(', ')}) is not compiled ${what}` }] };
        }
        return { path: spec.replace(/\.([cm]?)tsx?$/, '.$1js'), external: true };
      });
    },
  };
}
