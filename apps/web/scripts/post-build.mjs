#!/usr/bin/env node
// After `vite build`: records the BASE_PATH the build was made for (scripts/ensure-web-build.mjs reads
// it) and writes .gz and .br beside each asset so a server or proxy can send them precompressed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { basePathFromEnv } from './base-path.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');
const assets = path.join(dist, 'assets');
for (const name of fs.readdirSync(assets)) {
  if (!/\.(js|css|svg)$/.test(name)) continue;
  const data = fs.readFileSync(path.join(assets, name));
  fs.writeFileSync(path.join(assets, `${name}.gz`), zlib.gzipSync(data, { level: 9 }));
  fs.writeFileSync(path.join(assets, `${name}.br`), zlib.brotliCompressSync(data));
}
fs.writeFileSync(
  path.join(dist, '.build-info.json'),
  JSON.stringify(
    { base: basePathFromEnv(process.env.BASE_PATH), builtAt: new Date().toISOString() },
    null,
    2,
  ),
);
