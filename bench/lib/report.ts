import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One line of the results table. Absent figures do not apply to that measurement. */
export interface Row {
  suite: 'read' | 'search' | 'write' | 'fanout' | 'chat' | 'memory' | 'web' | 'dataset' | 'mixed';
  name: string;
  engine?: string;
  size?: string;
  rps?: number;
  p50?: number;
  p99?: number;
  max?: number;
  /** The raw node:http ceiling for the same answers and settings, and rps / ceiling. */
  ceilingRps?: number;
  ratio?: number;
  /** Any other figure, with its unit in the key (e.g. rss_mb, kb_gzip, score). */
  value?: number;
  unit?: string;
  errors?: number;
  target?: string;
  pass?: boolean;
  note?: string;
}

export interface Environment {
  when: string;
  node: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  loadBefore: number[];
  loadAfter?: number[];
  settings: Record<string, unknown>;
}

export function environment(settings: Record<string, unknown>): Environment {
  return {
    when: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1e9),
    loadBefore: os.loadavg().map((n) => Math.round(n * 100) / 100),
    settings,
  };
}

const fmt = (n: number | undefined, digits = 0) =>
  n === undefined
    ? ''
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const COLUMNS: Array<[string, (r: Row) => string]> = [
  ['suite', (r) => r.suite],
  ['measurement', (r) => r.name],
  ['db', (r) => [r.engine, r.size].filter(Boolean).join(' ')],
  ['req/s', (r) => fmt(r.rps)],
  ['p50 ms', (r) => fmt(r.p50, 1)],
  ['p99 ms', (r) => fmt(r.p99, 1)],
  ['ceiling', (r) => fmt(r.ceilingRps)],
  ['ratio', (r) => fmt(r.ratio, 2)],
  [
    'value',
    (r) =>
      r.value === undefined ? '' : `${fmt(r.value, r.value < 100 ? 1 : 0)} ${r.unit ?? ''}`.trim(),
  ],
  ['errors', (r) => fmt(r.errors)],
  ['target', (r) => r.target ?? ''],
  ['ok', (r) => (r.pass === undefined ? '' : r.pass ? 'yes' : 'NO')],
];

/** The results as a Markdown table (what the terminal shows and what bench/README.md embeds). */
export function markdownTable(rows: readonly Row[]): string {
  const header = `| ${COLUMNS.map(([name]) => name).join(' | ')} |`;
  const rule = `|${COLUMNS.map(([name]) => (['suite', 'measurement', 'db', 'target', 'ok'].includes(name) ? '---' : '---:')).join('|')}|`;
  const lines = rows.map(
    (row) => `| ${COLUMNS.map(([, cell]) => cell(row).replace(/\|/g, '\\|')).join(' | ')} |`,
  );
  return [header, rule, ...lines].join('\n');
}

export const RESULTS_DIR = path.resolve(import.meta.dirname, '../results');

export function writeResults(name: string, data: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, name);
  fs.writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}
