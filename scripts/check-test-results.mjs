// Fails CI unless each required test project ran tests and none failed. A suite that skipped
// itself (no PostgreSQL, no browser) must not pass as green.
import fs from 'node:fs';

const REQUIRED = { sqlite: 1, postgres: 1, unit: 1 };

const counts = JSON.parse(fs.readFileSync('test-results/vitest-projects.json', 'utf8'));
const e2eFile = 'test-results/e2e-results.json';
if (fs.existsSync('e2e') && fs.readdirSync('e2e').some((f) => f.endsWith('.spec.ts'))) {
  REQUIRED.e2e = 1;
  REQUIRED.web = 1;
  if (fs.existsSync(e2eFile)) {
    // Playwright's JSON report: expected = passed, unexpected = failed, flaky = passed on retry.
    const { stats } = JSON.parse(fs.readFileSync(e2eFile, 'utf8'));
    counts.e2e = {
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected,
      skipped: stats.skipped,
    };
  }
}

let passed = 0;
let failed = 0;
let problems = 0;
for (const [name, c] of Object.entries(counts)) {
  console.log(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  passed += c.passed;
  failed += c.failed;
}
for (const [name, minimum] of Object.entries(REQUIRED)) {
  const c = counts[name];
  if (!c || c.passed < minimum) {
    console.error(`required test project "${name}" did not run`);
    problems++;
  } else if (name === 'postgres' && c.skipped > 0) {
    console.error('PostgreSQL tests were skipped: the PostgreSQL half must run whole');
    problems++;
  } else if (c.failed > 0) {
    console.error(`test project "${name}" had failures`);
    problems++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems > 0 ? 1 : 0);
