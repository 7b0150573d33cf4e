#!/usr/bin/env node
// Measures the JavaScript a first visit to a route downloads before it can render: the entry chunk,
// the route's lazy module and every chunk they import statically (transitively), gzipped.
// Usage: node scripts/measure-bundle.mjs [--check] [routeModule ...]   (after `vite build`)
// --check exits non-zero when the reader route is over READER_JS_LIMIT_KB (default 100).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);

function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return [...seen];
}

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const br = (file) => zlib.brotliCompressSync(fs.readFileSync(path.join(dist, file))).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const check = process.argv.includes('--check');
const routes = process.argv.slice(2).filter((a) => a !== '--check');
const targets = routes.length
  ? routes
  : ['src/app/routes/reader.tsx', 'src/app/routes/books.tsx', 'src/app/routes/home.tsx'];
const results = {};
for (const route of targets) {
  if (!manifest[route]) throw new Error(`no chunk for ${route} in the manifest`);
  const files = closure([entryKey, route]).map((k) => manifest[k].file);
  const total = files.reduce((sum, f) => sum + gz(f), 0);
  const brotli = files.reduce((sum, f) => sum + br(f), 0);
  results[route] = total;
  console.log(
    `${route}: ${kb(total)} gzipped, ${kb(brotli)} brotli initial JS (${files.length} files)`,
  );
}
const limit = Number(process.env.READER_JS_LIMIT_KB ?? 100) * 1024;
const reader = results['src/app/routes/reader.tsx'];
if (reader !== undefined && reader > limit) {
  console.error(`reader route is over its budget of ${kb(limit)} gzipped`);
  if (check) process.exit(1);
}
