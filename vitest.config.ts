import { defineConfig } from 'vitest/config';

// The API suite runs twice, once per database engine; TEST_DB tells the helpers which one.
// Pure unit tests run once.
const apiTests = ['apps/server/test/api/**/*.test.ts'];
// Reliability and security suites (faults, hostile input, access) run on both engines too;
// those under reliability/postgres/ need PostgreSQL + Redis (many processes) and run there only.
const reliabilityTests = ['apps/server/test/reliability/*.test.ts'];
// Those under postgres/ test what only the PostgreSQL driver does.
const postgresOnlyTests = [
  'apps/server/test/reliability/postgres/**/*.test.ts',
  'apps/server/test/postgres/**/*.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './scripts/project-counts-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'apps/server/test/unit/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            // The lint rules' own tests (import boundaries).
            'eslint/test/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'sqlite',
          include: [...apiTests, ...reliabilityTests],
          env: { TEST_DB: 'sqlite' },
        },
      },
      {
        test: {
          name: 'postgres',
          include: [...apiTests, ...reliabilityTests, ...postgresOnlyTests],
          env: { TEST_DB: 'postgres' },
        },
      },
      // The web app's component tests, in jsdom, on the runtime the bundle ships (see its config).
      'apps/web/vitest.config.ts',
    ],
  },
});
