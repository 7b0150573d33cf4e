import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Row } from '../lib/report.ts';
import { ROOT } from '../lib/server.ts';

const run = promisify(execFile);
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The modules a first visit to each route downloads before it can render (entry + the route's lazy chunks). */
const ROUTES: Record<string, { modules: string[]; limitKb?: number }> = {
  landing: { modules: ['src/app/routes/home.tsx'] },
  reader: { modules: ['src/app/routes/reader.tsx'], limitKb: 100 },
  editor: { modules: ['src/app/routes/workspace.tsx', 'src/features/editor/components/ChapterEditorPage.tsx'] },
};

/** Builds the web app unless a build is already there (or `force`). */
export async function ensureWebBuild(force: boolean, log: (line: string) => void) {
  if (!force && fs.existsSync(path.join(WEB_DIST, '.vite/manifest.json'))) return;
  log('  building the web app (npm run build -w @inkwell/web)');
  await run('npm', ['run', 'build', '-w', '@inkwell/web'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
}

/** Gzipped bytes (level 9, as apps/web/scripts/measure-bundle.mjs) of the initial JS and CSS of each route. */
export function bundleSizes(label: { engine?: string; size?: string } = {}): Row[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length;
  const rows: Row[] = [];
  for (const [route, { modules, limitKb }] of Object.entries(ROUTES)) {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const dep of manifest[key]!.imports ?? []) visit(dep);
    };
    for (const key of [entry, ...modules]) visit(key);
    const missing = modules.filter((m) => !manifest[m]);
    const js = [...seen].map((k) => manifest[k]!.file);
    const css = [...new Set([...seen].flatMap((k) => manifest[k]!.css ?? []))];
    const jsKb = js.reduce((sum, f) => sum + gz(f), 0) / 1024;
    const cssKb = css.reduce((sum, f) => sum + gz(f), 0) / 1024;
    for (const [kind, kb] of [['JS', jsKb], ['CSS', cssKb]] as const) {
      const judged = kind === 'JS' && limitKb !== undefined;
      rows.push({
        suite: 'web',
        name: `${route} route: initial ${kind} (gzip)`,
        ...label,
        value: Math.round(kb * 10) / 10,
        unit: 'KB',
        ...(judged && { target: `≤ ${limitKb} KB`, pass: kb <= limitKb! }),
        ...(missing.length && { note: `no chunk for ${missing.join(', ')}` }),
      });
    }
  }
  return rows;
}

/** A Lighthouse performance run (mobile emulation, its default) of one page, in Debian's Chromium. */
export async function lighthouse(url: string, name: string, log: (line: string) => void): Promise<Row> {
  const cli = path.join(ROOT, 'node_modules/lighthouse/cli/index.js');
  if (!fs.existsSync(cli)) {
    return { suite: 'web', name, value: 0, unit: 'score', note: 'lighthouse is not installed (npm install -D lighthouse)' };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [cli, url, '--only-categories=performance', '--output=json', `--output-path=${output}`, '--quiet', '--chrome-flags=--headless=new --no-sandbox --disable-gpu'],
      { cwd: ROOT, env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(fs.readFileSync(output, 'utf8')) as {
      categories: { performance: { score: number } };
      audits: Record<string, { numericValue?: number }>;
    };
    const score = Math.round(report.categories.performance.score * 100);
    const metric = (id: string) => Math.round(report.audits[id]?.numericValue ?? 0);
    const note = `FCP ${metric('first-contentful-paint')} ms, LCP ${metric('largest-contentful-paint')} ms, TBT ${metric('total-blocking-time')} ms, CLS ${(report.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)}`;
    log(`  lighthouse ${name}: ${score} (${note})`);
    return { suite: 'web', name, value: score, unit: 'score', target: '≥ 95', pass: score >= 95, note };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
