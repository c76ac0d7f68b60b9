/** Regenerates packages/contract/src/districts.ts, district-centres.ts and district-points.ts from the boundary files (`npm run districts:generate`). */
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
// After district-centres.ts is written: each district's points begin at its centre (docs/decisions/0134).
const { buildPoints, renderPointsModule } = await import('../src/district-points.build.ts');
const points = buildPoints();
writeFileSync(new URL('../src/district-points.ts', import.meta.url), renderPointsModule(points));
console.log(`district-points.ts: ${points.reduce((n, [, p]) => n + p.length, 0)} points`);
