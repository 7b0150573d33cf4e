import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes how many tests passed, failed and were skipped in each Vitest project to
 * test-results/vitest-projects.json, so that CI can prove the PostgreSQL half really ran
 * instead of trusting an exit code. The files about nginx in front (named *nginx*) are counted
 * once more on their own, as `postgres-nginx`, so CI can prove those ran too.
 */
export default class ProjectCountsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts: Record<string, { passed: number; failed: number; skipped: number }> = {};
    for (const module of testModules) {
      const name = module.project.name || 'default';
      // They run on PostgreSQL (several processes need it), and skip themselves elsewhere.
      const nginx = name === 'postgres' && /nginx/.test(path.basename(module.moduleId));
      const names = nginx ? [name, `${name}-nginx`] : [name];
      const entries = names.map((n) => (counts[n] ??= { passed: 0, failed: 0, skipped: 0 }));
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        for (const entry of entries) {
          if (state === 'passed') entry.passed++;
          else if (state === 'failed') entry.failed++;
          else entry.skipped++;
        }
      }
    }
    const file = path.resolve('test-results/vitest-projects.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(counts, null, 2)}\n`);
  }
}
