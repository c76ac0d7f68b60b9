/** Regenerates packages/contract/src/phone-metadata.ts from the installed libphonenumber-js (`npm run phones:generate`). */
import { writeFileSync } from 'node:fs';
import { buildPhoneMetadata, renderPhoneMetadataModule } from '../src/phone-metadata.build.ts';

const m = buildPhoneMetadata();
writeFileSync(new URL('../src/phone-metadata.ts', import.meta.url), renderPhoneMetadataModule(m));
console.log(`phone-metadata.ts: ${Object.keys(m.countries).join(', ')}`);
