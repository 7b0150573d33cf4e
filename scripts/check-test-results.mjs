// Fails CI unless each required test project ran tests and none failed. A suite that skipped
// itself (no PostgreSQL, no browser, no nginx) must not pass as green.
import fs from 'node:fs';

// postgres-nginx: the API tests and the fault test through nginx (files named *nginx*, counted
// apart by scripts/project-counts-reporter.ts): at least as many as those files hold, so that a
// run where some of them skipped themselves is not taken for a full one.
const REQUIRED = { sqlite: 1, postgres: 1, unit: 1, 'postgres-nginx': 17 };

const counts = JSON.parse(fs.readFileSync('test-results/vitest-projects.json', 'utf8'));
// Playwright's JSON report: expected = passed, unexpected = failed, flaky = passed on retry.
function playwrightCounts(file) {
  if (!fs.existsSync(file)) return undefined;
  const { stats } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}
if (fs.existsSync('e2e') && fs.readdirSync('e2e').some((f) => f.endsWith('.spec.ts'))) {
  REQUIRED.e2e = 1;
  REQUIRED.web = 1;
  counts.e2e = playwrightCounts('test-results/e2e-results.json');
  // Part of the suite through nginx (e2e/nginx/playwright.config.ts): 6 of the suite's tests,
  // chat across processes, and a process killed under a reader.
  REQUIRED['e2e-nginx'] = 8;
  counts['e2e-nginx'] = playwrightCounts('test-results/e2e-nginx-results.json');
}

let passed = 0;
let failed = 0;
let problems = 0;
for (const [name, c] of Object.entries(counts)) {
  if (!c) continue;
  console.log(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  // postgres-nginx is a part of postgres's count, shown apart: not added twice.
  if (name === 'postgres-nginx') continue;
  passed += c.passed;
  failed += c.failed;
}
for (const [name, minimum] of Object.entries(REQUIRED)) {
  const c = counts[name];
  if (!c || c.passed < minimum) {
    console.error(
      c
        ? `required test project "${name}" ran ${c.passed} tests, fewer than ${minimum}`
        : `required test project "${name}" did not run`,
    );
    problems++;
  } else if (name.startsWith('postgres') && c.skipped > 0) {
    console.error('PostgreSQL tests were skipped: the PostgreSQL half must run whole');
    problems++;
  } else if (c.failed > 0) {
    console.error(`test project "${name}" had failures`);
    problems++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems > 0 ? 1 : 0);
