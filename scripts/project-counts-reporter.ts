import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes how many tests passed, failed and were skipped in each Vitest project to
 * test-results/vitest-projects.json, so that CI can prove the PostgreSQL half really ran
 * instead of trusting an exit code.
 */
export default class ProjectCountsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts: Record<string, { passed: number; failed: number; skipped: number }> = {};
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const entry = (counts[name] ??= { passed: 0, failed: 0, skipped: 0 });
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') entry.passed++;
        else if (state === 'failed') entry.failed++;
        else entry.skipped++;
      }
    }
    const file = path.resolve('test-results/vitest-projects.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(counts, null, 2)}\n`);
  }
}
