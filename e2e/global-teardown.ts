import fs from 'node:fs';
import path from 'node:path';

/** Removes the temporary data directories (databases, uploads) the e2e servers used. */
export default function globalTeardown() {
  for (const dir of (process.env.KUTU_E2E_DATA_DIR ?? '').split(path.delimiter)) {
    if (dir.includes('kutu-e2e-')) fs.rmSync(dir, { recursive: true, force: true });
  }
}
