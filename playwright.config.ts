/**
 * Playwright runs the browser tests in `test/browser` in Debian's Chromium.
 *
 * @module
 */

import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "test/browser",
  testMatch: "**/*.spec.ts",
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  globalTimeout: 10 * 60_000,
  use: {
    browserName: "chromium",
    headless: true,
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
});
