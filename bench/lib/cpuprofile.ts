import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by function, largest first. */
  functions: Array<{ name: string; where: string; selfMs: number; share: number }>;
  /** Self time by package (node_modules/<pkg>), by our own source folder, or by node internals. */
  packages: Array<{ name: string; selfMs: number; share: number }>;
}

function ownerOf(url: string): string {
  if (!url) return '(native / idle)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(url.lastIndexOf('/', src - 1) + 1, url.lastIndexOf('/') + 1);
  return path.basename(url);
}

/**
 * Self time per function and per package of a .cpuprofile written by node --cpu-prof. With
 * `windowMs`, only the samples of that many milliseconds before the end count (minus the last
 * `tailMs`, the shutdown), so start-up (loading and compiling the code) stays out of the figures.
 */
export function summarizeProfile(
  file: string,
  top = 25,
  window?: { windowMs: number; tailMs: number },
): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const at: number[] = [];
  let clock = 0;
  for (const delta of profile.timeDeltas) at.push((clock += delta / 1000));
  const to = window ? clock - window.tailMs : Infinity;
  const from = window ? to - window.windowMs : -Infinity;
  for (let i = 0; i < profile.samples.length; i++) {
    if (at[i]! < from || at[i]! > to) continue;
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const functions = new Map<string, { name: string; where: string; selfMs: number }>();
  const packages = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    const name = frame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      packages.set(name, (packages.get(name) ?? 0) + ms);
    } else {
      const owner = ownerOf(frame.url);
      packages.set(owner, (packages.get(owner) ?? 0) + ms);
    }
    const where = frame.url
      ? `${ownerOf(frame.url)}${path.basename(frame.url)}:${frame.lineNumber + 1}`
      : '';
    const key = `${name}@${where}`;
    const entry = functions.get(key) ?? { name, where, selfMs: 0 };
    entry.selfMs += ms;
    functions.set(key, entry);
  }
  const share = (ms: number) => Math.round((ms / total) * 1000) / 10;
  return {
    totalMs: Math.round(total),
    functions: [...functions.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top)
      .map((f) => ({ ...f, selfMs: Math.round(f.selfMs), share: share(f.selfMs) })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, selfMs: Math.round(ms), share: share(ms) })),
  };
}

export function printProfile(summary: ProfileSummary, log: (line: string) => void) {
  log(`  profile: ${summary.totalMs} ms sampled`);
  log('  by package:');
  for (const p of summary.packages.slice(0, 15))
    log(`    ${String(p.share).padStart(5)} %  ${p.name}`);
  log('  by function (self time):');
  // A regular expression's "function" is its whole source, some of them kilobytes long.
  const short = (name: string) => (name.length > 100 ? `${name.slice(0, 99)}…` : name);
  for (const f of summary.functions.slice(0, 20))
    log(`    ${String(f.share).padStart(5)} %  ${short(f.name)}  ${f.where}`);
}
