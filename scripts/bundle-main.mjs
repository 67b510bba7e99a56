// Bundles what a `rapport` process's main thread loads (dist/cli/main.js and everything it
// imports, npm packages included) into a few files under dist/bundle/, which bin/rapport.mjs
// runs. Loading the service's ~380 compiled modules and ~500 package files one by one cost ~0.6 s
// of CPU at every start of every process (the service, each CLI verb, each test that starts
// one); the bundle loads in about half that. dist/'s own tree stays as it is: worker threads
// start from it (src/shared/worker-entry.ts), and the data files beside it are read from there.
//
// Every bundled module still sees its own place: `import.meta.url` in an ES module becomes the
// URL of the file it was bundled from, and a CommonJS module gets its `__dirname` and
// `__filename` the same way, both relative to the bundle's file, so a copy of the whole folder
// moved elsewhere still finds its data (JSON, migrations, fonts, the database template).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Packages left to Node's own loader: PGlite (its WebAssembly and data files, and the largest
 * module of all, which V8 compiles lazily anyway), a native addon, and those that start threads
 * or read their own files by path (piscina's worker, pino's transports, swagger-ui's assets).
 * Packages loaded through `loadOnUse` (src/shared/load-on-use.ts) are required by a name only
 * known at run time, so they stay out by themselves.
 */
const EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', '@resvg/resvg-js', 'piscina', 'pino', 'pino/*', 'thread-stream', '@fastify/swagger-ui'];

const BANNER = [
  "import { createRequire as bundledCreateRequire } from 'node:module';",
  "import { fileURLToPath as bundledFileURLToPath } from 'node:url';",
  'const require = bundledCreateRequire(import.meta.url);',
  '/** The URL, and the path, of the file a bundled module came from (relative to this bundle file). */',
  'const bundledModuleUrl = (relative) => new URL(relative, import.meta.url).href;',
  'const bundledModulePath = (relative) => bundledFileURLToPath(new URL(relative, import.meta.url));',
].join('\n');

/** An esbuild plugin: each module's `import.meta.url`, `__dirname` and `__filename` name its original file. */
function ownPlace(outdir) {
  return {
    name: 'own-place',
    setup(build) {
      build.onLoad({ filter: /\.(js|mjs|cjs)$/ }, async (args) => {
        const original = await readFile(args.path, 'utf8');
        const relative = (target) => {
          const rel = path.relative(outdir, target).split(path.sep).join('/');
          return JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`);
        };
        let contents = original.replaceAll('import.meta.url', `bundledModuleUrl(${relative(args.path)})`);
        // A CommonJS module reading its own folder; an ES module has no such names.
        if (/\b__(dirname|filename)\b/.test(contents) && !/^\s*(import|export)\s/m.test(contents)) {
          contents = `var __filename = bundledModulePath(${relative(args.path)}); var __dirname = bundledModulePath(${relative(path.dirname(args.path))});\n${contents}`;
        }
        return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Bundles `entry` (a compiled file) into `outdir` as `<name>.js` and its shared chunks. */
export async function bundleMain(entry, outdir, name) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { [name]: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    banner: { js: BANNER },
    plugins: [ownPlace(outdir)],
    // Stack traces map back through dist/'s own maps to src/ under --enable-source-maps.
    sourcemap: true,
    logLevel: 'warning',
  });
}
