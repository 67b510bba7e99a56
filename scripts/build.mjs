// Compiles src/ into dist/ (plain JavaScript, run by `npm start` and the worker threads) and
// copies every file tsc does not emit (JSON data, SQL migrations, the demo people, .mjs worker
// boot files...) to the same relative place, so code that reads a sibling file through
// import.meta.url finds it in both trees. Plain Node on purpose: it runs from `prepare`, before
// anything else is known to work, and must not depend on a shell.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtime } from '../bin/newest-mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

// Sources only; the copy's docs (README.md) are for readers of src/.
const COMPILED = /\.(ts|mts|cts)$/;
const SKIPPED = /(\.md|\.test\.[cm]?[jt]s)$/;

// `prepare` also runs when npx first runs `rapport` in a checkout, maybe beside a running
// service that reads dist/: a build that is current is left alone rather than deleted and
// made again under it. So is a dist/ with no src/ beside it (a packaged copy). `npm run build`
// always builds. The inputs: src/, tsconfig.build.json and the build's own two scripts.
const stamp = path.join(dist, '.build-stamp');
if (process.env.npm_lifecycle_event === 'prepare' && existsSync(stamp)) {
  const buildScripts = [import.meta.url, new URL('./bundle-main.mjs', import.meta.url)].map((url) => newestMtime(fileURLToPath(url)));
  const inputs = Math.max(newestMtime(src), newestMtime(path.join(root, 'tsconfig.build.json')), ...buildScripts);
  if (!existsSync(src) || inputs <= statSync(stamp).mtimeMs) {
    console.log('build: dist/ is up to date with src/, left as it is (`npm run build` rebuilds it)');
    process.exit(0);
  }
}

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  console.error('build: tsc failed');
  process.exit(result.status ?? 1);
}

let copied = 0;
const copyAssets = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(from);
    else if (entry.isFile() && !COMPILED.test(entry.name) && !SKIPPED.test(entry.name)) {
      const to = path.join(dist, path.relative(src, from));
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to);
      copied += 1;
    }
  }
};
copyAssets(src);

// TypeBox ships as ~680 small ES modules: every `rapport` process (a CLI verb, the service, each
// worker thread that validates) spent ~0.6 s of CPU resolving and compiling them before doing
// anything. The build bundles the entry points dist/ imports into a few files under
// dist/vendor/ and points dist/'s imports at them: the same code, loaded in ~0.1 s. Only
// dist/ changes; the sources (tsx, the tests) still import the package.
const VENDORED = /(["'])(typebox(?:\/[\w-]+)*)\1/g;
const IMPORT_OF_VENDORED = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(typebox(?:\/[\w-]+)*)\2/g;
const compiledFiles = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const full = path.join(dir, entry.name);
  if (entry.isDirectory()) return compiledFiles(full);
  return entry.isFile() && entry.name.endsWith('.js') ? [full] : [];
});
const vendorDir = path.join(dist, 'vendor');
const specifiers = new Set();
for (const file of compiledFiles(dist)) for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_OF_VENDORED)) specifiers.add(match[3]);
const vendorName = (specifier) => specifier.replace(/^@/, '').replaceAll('/', '-');
/**
 * Points dist/'s imports that `importPattern` matches (groups: keyword, quote, specifier) at the
 * specifier's bundle in dist/vendor/, then stops the build where a file still names the package
 * (`leftOver` lists those names): a form the pattern missed would load the package's second copy
 * beside the bundle, with state (TypeBox's formats, prom-client's registries) in one and not the other.
 */
const pointImportsAtVendor = (importPattern, leftOver, what) => {
  for (const file of compiledFiles(dist)) {
    if (file.startsWith(vendorDir + path.sep)) continue;
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(importPattern, (_, keyword, quote, specifier) => {
      const target = path.relative(path.dirname(file), path.join(vendorDir, `${vendorName(specifier)}.js`)).split(path.sep).join('/');
      return `${keyword}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
    });
    if (rewritten !== text) writeFileSync(file, rewritten);
    const left = leftOver(rewritten);
    if (left.length > 0) {
      console.error(`build: ${path.relative(root, file)} still names ${left.join(', ')} after bundling ${what} into dist/vendor/`);
      process.exit(1);
    }
  }
};
if (specifiers.size > 0) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: Object.fromEntries([...specifiers].map((specifier) => [vendorName(specifier), fileURLToPath(import.meta.resolve(specifier))])),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: vendorDir,
    logLevel: 'warning',
  });
  pointImportsAtVendor(IMPORT_OF_VENDORED, (text) => (text.match(VENDORED) ?? []).filter((literal) => /^.typebox(\/|.$)/.test(literal)), 'TypeBox');
}
// Two CommonJS packages every `serve` start loads, with what they load: @fastify/swagger
// (~110 files, ~75 of them yaml, used only for a YAML document Rapport never asks for) and
// prom-client (~95, ~55 of them @opentelemetry/api, for exemplars). Each is bundled into one file
// under dist/vendor/ and dist/'s imports pointed at it, like TypeBox: the same code with one file
// to open and compile instead of a hundred. Every dist/ import of them goes to the bundle, so a
// process holds one copy (prom-client's registries are module state). Node's own modules stay
// `require`d, through a `require` made for the bundle.
const COMMONJS_VENDORED = ['@fastify/swagger', 'prom-client'];
const IMPORT_OF_COMMONJS = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(@fastify\/swagger|prom-client)\2/g;
{
  const requireHere = createRequire(import.meta.url);
  const entries = mkdtempSync(path.join(tmpdir(), 'rapport-vendor-'));
  try {
    const entryPoints = {};
    for (const specifier of COMMONJS_VENDORED) {
      // An ES module's named imports of a CommonJS package are its exports' names: the entry
      // re-exports each one, and the whole as the default, as Node's own interop does.
      const names = Object.keys(requireHere(specifier)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      const entry = path.join(entries, `${vendorName(specifier)}.mjs`);
      const source = JSON.stringify(requireHere.resolve(specifier));
      writeFileSync(entry, `import whole from ${source};\nexport const { ${names.join(', ')} } = whole;\nexport default whole;\n`);
      entryPoints[vendorName(specifier)] = entry;
    }
    const { build } = await import('esbuild');
    await build({
      entryPoints,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: vendorDir,
      banner: { js: "import { createRequire as vendoredCreateRequire } from 'node:module';\nconst require = vendoredCreateRequire(import.meta.url);" },
      logLevel: 'error',
    });
  } finally {
    rmSync(entries, { recursive: true, force: true });
  }
  pointImportsAtVendor(IMPORT_OF_COMMONJS, (text) => text.match(/(["'])(@fastify\/swagger|prom-client)(\/[\w./-]*)?\1/g) ?? [], COMMONJS_VENDORED.join(' and '));
}
// What a process's main thread loads, bundled (scripts/bundle-main.mjs): bin/rapport.mjs runs it.
const { bundleMain } = await import('./bundle-main.mjs');
await bundleMain(path.join(dist, 'cli', 'main.js'), path.join(dist, 'bundle'), 'rapport');
// The empty database new data directories start from (src/db/embedded-template.ts): initdb's
// memory is spent here, once, rather than at a service's first start.
const { createEmbeddedTemplate } = await import(pathToFileURL(path.join(dist, 'db', 'embedded.js')).href);
const { embeddedTemplateFile } = await import(pathToFileURL(path.join(dist, 'db', 'embedded-template.js')).href);
await createEmbeddedTemplate(embeddedTemplateFile());
// Written last: bin/rapport.mjs runs dist/ only when no source is newer than this stamp.
writeFileSync(path.join(dist, '.build-stamp'), `${new Date().toISOString()}\n`);
console.log(`build: dist/ compiled, ${copied} data files copied, migrated empty database made`);
