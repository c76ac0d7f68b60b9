import fs from 'node:fs';
import path from 'node:path';
import { type DistrictTopology, districtFeatures } from '../lib/geo/geo.ts';

const GEO = path.resolve(import.meta.dirname, '../../../../packages/contract/geo');

/** A shipped boundary file as the server sends it (`uganda-districts.topojson`, `kenya-counties.topojson`). */
export const topojsonResponse = (file: string) =>
  new Response(fs.readFileSync(path.join(GEO, file), 'utf8'), { status: 200 });

/** Uganda's 112 district shapes from the shipped boundary file. */
export const ugandaDistricts = () =>
  districtFeatures(
    JSON.parse(fs.readFileSync(path.join(GEO, 'uganda-districts.topojson'), 'utf8')) as DistrictTopology,
    'UG',
  );
