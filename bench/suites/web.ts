import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { RESULTS_DIR, type Row } from '../lib/report.ts';
import { ROOT } from '../lib/server.ts';

const run = promisify(execFile);

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
  editor: {
    modules: [
      'src/app/routes/workspace.tsx',
      'src/features/editor/components/ChapterEditorPage.tsx',
    ],
  },
};

/**
 * Builds the web app from the current sources into a folder of its own (apps/web/dist is left to
 * whoever else uses it), then writes .gz and .br beside each asset as apps/web's post-build does,
 * so the server sends them precompressed as in production. Answers the folder; remove it after.
 */
export async function buildWeb(log: (line: string) => void): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-web-'));
  log('  building the web app (vite build) into a temporary folder');
  await run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      dir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: path.join(ROOT, 'apps/web'),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    },
  );
  const assets = path.join(dir, 'assets');
  for (const name of fs.readdirSync(assets)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const data = fs.readFileSync(path.join(assets, name));
    fs.writeFileSync(path.join(assets, `${name}.gz`), zlib.gzipSync(data, { level: 9 }));
    fs.writeFileSync(path.join(assets, `${name}.br`), zlib.brotliCompressSync(data));
  }
  return dir;
}

/** Gzipped bytes (level 9, as apps/web/scripts/measure-bundle.mjs) of the initial JS and CSS of each route. */
export function bundleSizes(dist: string, label: { engine?: string; size?: string } = {}): Row[] {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const gz = (file: string) =>
    zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
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
    for (const [kind, kb] of [
      ['JS', jsKb],
      ['CSS', cssKb],
    ] as const) {
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

/**
 * A Lighthouse performance run (mobile emulation, its default) of one page, in Debian's Chromium.
 * The full report is kept as bench/results/lighthouse-reader.json; the audits that cost points
 * are listed in the log.
 */
export async function lighthouse(
  url: string,
  name: string,
  log: (line: string) => void,
): Promise<Row> {
  const cli = path.join(ROOT, 'node_modules/lighthouse/cli/index.js');
  if (!fs.existsSync(cli)) {
    return {
      suite: 'web',
      name,
      value: 0,
      unit: 'score',
      note: 'lighthouse is not installed (npm install -D lighthouse)',
    };
  }
  // Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is repeated.
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await lighthouseOnce(cli, url, name, log);
    } catch (error) {
      lastError = error;
      log(
        `  lighthouse attempt ${attempt} failed: ${
          String((error as { stderr?: string }).stderr ?? error)
            .trim()
            .split('\n')[0]
        }`,
      );
    }
  }
  return {
    suite: 'web',
    name,
    value: 0,
    unit: 'score',
    target: '≥ 95',
    pass: false,
    note: `lighthouse failed: ${String(lastError).split('\n')[0]}`,
  };
}

async function lighthouseOnce(
  cli: string,
  url: string,
  name: string,
  log: (line: string) => void,
): Promise<Row> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        cli,
        url,
        '--only-categories=performance',
        '--output=json',
        `--output-path=${output}`,
        '--quiet',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        timeout: 180_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const report = JSON.parse(fs.readFileSync(output, 'utf8')) as {
      categories: { performance: { score: number } };
      audits: Record<
        string,
        { numericValue?: number; score: number | null; title: string; displayValue?: string }
      >;
    };
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.copyFileSync(output, path.join(RESULTS_DIR, 'lighthouse-reader.json'));
    const costly = Object.values(report.audits).filter(
      (a) => a.score !== null && a.score < 0.9 && a.displayValue,
    );
    for (const audit of costly.slice(0, 10)) log(`    ${audit.title}: ${audit.displayValue}`);
    const score = Math.round(report.categories.performance.score * 100);
    const metric = (id: string) => Math.round(report.audits[id]?.numericValue ?? 0);
    const note = `FCP ${metric('first-contentful-paint')} ms, LCP ${metric('largest-contentful-paint')} ms, TBT ${metric('total-blocking-time')} ms, CLS ${(report.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)}`;
    log(`  lighthouse ${name}: ${score} (${note})`);
    return {
      suite: 'web',
      name,
      value: score,
      unit: 'score',
      target: '≥ 95',
      pass: score >= 95,
      note,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
