import { defineConfig } from 'vitest/config';

// One stack per test run: test/global-setup.ts starts the Temporal dev server, bundles the
// workflows and prepares a fresh PostgreSQL database (when DATABASE_URL is set) once; each test
// file builds its app and worker on its own task queue and organizations.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    reporters: ['default'],
  },
});
