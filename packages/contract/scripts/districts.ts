/** Regenerates packages/contract/src/districts.ts and district-centres.ts from the boundary files (`npm run districts:generate`). */
import { writeFileSync } from 'node:fs';
import { buildDistricts, renderDistrictsModule } from '../src/districts.build.ts';

const list = buildDistricts();
writeFileSync(new URL('../src/districts.ts', import.meta.url), renderDistrictsModule(list));
console.log(`districts.ts: ${list.length} districts and counties`);
// After districts.ts is written: the centres follow its list.
const { buildCentres, renderCentresModule } = await import('../src/district-centres.build.ts');
const centres = buildCentres();
writeFileSync(new URL('../src/district-centres.ts', import.meta.url), renderCentresModule(centres));
console.log(`district-centres.ts: ${centres.length} centres`);
