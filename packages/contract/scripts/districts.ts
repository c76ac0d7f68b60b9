/** Regenerates packages/contract/src/districts.ts from the boundary files (`npm run districts:generate`). */
import { writeFileSync } from 'node:fs';
import { buildDistricts, renderDistrictsModule } from '../src/districts.build.ts';

const list = buildDistricts();
writeFileSync(new URL('../src/districts.ts', import.meta.url), renderDistrictsModule(list));
console.log(`districts.ts: ${list.length} districts and counties`);
