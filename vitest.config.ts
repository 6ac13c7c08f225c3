import { defineConfig } from 'vitest/config';

// Four projects: `unit` needs nothing but `npm ci`; `adb` needs the Debian `adb` binary;
// Five projects: `unit` needs nothing but `npm ci`; `adb` needs the Debian `adb` binary; `helper`
// verifies the built APK; `browser` needs Debian's Chromium (/usr/bin/chromium); `shared` reads
// third-party dumps from ../shared, which a fresh clone does not have.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'helper/**/*.test.ts', 'regression-tasks/**/*.test.ts'],
          exclude: [
            'test/adb/**',
            'test/shared/**',
            'test/browser/**',
            'helper/android/apk.test.ts',
            '**/node_modules/**',
          ],
          testTimeout: 30_000,
        },
      },
      { test: { name: 'adb', include: ['test/adb/**/*.test.ts'], testTimeout: 60_000, fileParallelism: false } },
      // `helper` verifies the APK that `npm run helper:build` made (needs Debian's aapt, apksigner, dexdump).
      { test: { name: 'helper', include: ['helper/android/apk.test.ts'], testTimeout: 60_000 } },
      {
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 60_000, fileParallelism: false },
      },
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], testTimeout: 60_000 } },
    ],
  },
});
