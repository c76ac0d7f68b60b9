import fs from 'node:fs';

/** Removes the temporary data directory (database, uploads) the e2e server used. */
export default function globalTeardown() {
  const dir = process.env.KUTU_E2E_DATA_DIR;
  if (dir?.includes('kutu-e2e-')) fs.rmSync(dir, { recursive: true, force: true });
}
