import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_ADMIN } from './e2e/admin.ts';

/**
 * Specs whose users are their own, made for the test, and whose screens show only those users' data:
 * they may run beside each other. A spec that reads a list or a count other specs add to, or changes
 * the administrator, stays out.
 */
const INDEPENDENT = [
  'a11y',
  'action',
  'analysis',
  'auth',
  'field-leaves',
  'fields',
  'follow-up-choice',
  'i18n-layout',
  'narrow-text',
  'offline-diagnosis',
  'phone',
  'phone-only',
  'phone-walk',
  'pwa',
  'second-photo',
  'severity',
  'shell',
  'short-links',
].map((name) => `${name}.spec.ts`);

const port = Number(process.env.E2E_PORT ?? 8181);
const weatherPort = port + 1000;
// The shared specs' own server (docs/decisions/0132): they count what every user of their server wrote, so
// they get a server no independent spec writes to, and run one at a time on it beside the independent ones.
const sharedPort = port + 2000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-e2e-'));
const sharedDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-e2e-'));
// The global teardown removes this run's databases and uploads.
process.env.KUTU_E2E_DATA_DIR = [dataDir, sharedDataDir].join(path.delimiter);

/** One Kutu server on its own port and data directory, its administrator made first. */
function kutuServer(serverPort: number, serverDataDir: string) {
  return {
    // The run's administrator first, by the real command with its password on standard input (e2e/admin.ts).
    command:
      `printf '%s\\n' "$E2E_ADMIN_PASSWORD" | node_modules/.bin/node apps/server/src/cli/admin-create.ts` +
      ` --email ${E2E_ADMIN.email} --phone '${E2E_ADMIN.phone}' && node_modules/.bin/node apps/server/src/main.ts`,
    url: `http://127.0.0.1:${serverPort}/api/health/`,
    reuseExistingServer: false,
    timeout: 240_000,
    env: {
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: serverDataDir,
      PUBLIC_URL: `http://127.0.0.1:${serverPort}`,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000',
      NODE_ENV: 'development',
      E2E_ADMIN_PASSWORD: E2E_ADMIN.password,
      WEATHER_URL: `http://127.0.0.1:${weatherPort}`,
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  // Per port: two runs side by side (E2E_PORT) would otherwise delete each other's traces.
  outputDir: `test-results/${port}`,
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two browsers at a time. The specs that read only what their own new users wrote (INDEPENDENT) share
  // one server; the rest count what every user wrote (the review queue, training figures, an empty
  // outbreak map, the board) or change the server's one administrator (its language), so they run one at
  // a time on a server of their own, beside the independent ones rather than after them.
  workers: 2,
  projects: [
    {
      name: 'shared',
      testIgnore: INDEPENDENT,
      workers: 1,
      use: { baseURL: `http://127.0.0.1:${sharedPort}` },
    },
    // Listed after `shared`, so a worker takes the shared specs from the start and the other the
    // independent ones; test by test rather than file by file, so one file's three axe walks (5 minutes
    // under load) do not keep one browser busy after the other has finished.
    { name: 'independent', testMatch: INDEPENDENT, fullyParallel: true },
  ],
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    timezoneId: 'Africa/Kampala',
    // Recording a trace of every test cost 16 % of the run (134 s against 112 s for two specs, back to
    // back) and CI keeps only the printed log. A failing spec rerun alone with
    // `--trace retain-on-failure` gives the trace; each failure still writes its page's error-context.md.
    trace: 'off',
    // The offline specs opt in. Elsewhere a worker still precaching the whole app (1.7 MB) when a test
    // ends once held Chromium's context close for the full 90 s test timeout.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // Open-Meteo's replies for the week's rust forecast (decision 0100): cool wet nights from today on.
      command: `node_modules/.bin/node e2e/weather-stub.ts ${weatherPort}`,
      url: `http://127.0.0.1:${weatherPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    kutuServer(port, dataDir),
    kutuServer(sharedPort, sharedDataDir),
  ],
});
