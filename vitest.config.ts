import { defineConfig } from 'vitest/config';

// Two tiers: `unit` (pure, in-process, beside the code as *.spec.ts) and `e2e` (real broker processes from
// dist/, real files and sockets, under test/). Long soak variants read BROOK_SOAK=1 and run a short form otherwise.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.spec.ts', 'test/unit/**/*.spec.ts', 'console/src/**/*.spec.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
