#!/usr/bin/env node
// prestart: builds the web app when apps/web/dist is missing, older than its sources, or was built
// for another BASE_PATH, so that `npm ci && npm start` serves the whole product.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { basePathFromEnv } from '../apps/web/scripts/base-path.mjs';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const stamp = path.join(web, 'dist/.build-info.json');
const sources = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'vite',
  'package.json',
  'scripts',
].map((p) => path.join(web, p));
const base = basePathFromEnv(process.env.BASE_PATH);

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(p)
    .reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

function reasonToBuild() {
  if (!fs.existsSync(path.join(web, 'dist/index.html')) || !fs.existsSync(stamp))
    return 'no build yet';
  const info = JSON.parse(fs.readFileSync(stamp, 'utf8'));
  if (info.base !== base) return `BASE_PATH changed (${info.base} -> ${base})`;
  if (Math.max(...sources.map(newestMtime)) > fs.statSync(stamp).mtimeMs) return 'sources changed';
  return null;
}

const reason = reasonToBuild();
if (reason) {
  console.log(`[web] building the web app: ${reason}`);
  const run = (script, args = []) =>
    execFileSync(process.execPath, [script, ...args], { cwd: web, stdio: 'inherit' });
  run(path.join(root, 'node_modules/vite/bin/vite.js'), ['build']);
  run(path.join(web, 'scripts/post-build.mjs'));
} else {
  console.log('[web] web app build is up to date');
}
