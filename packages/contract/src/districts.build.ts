/**
 * Builds the outbreak watch's district list from the shipped boundaries in `packages/contract/geo/`: each
 * Uganda district and Kenya county with its code, name, country and neighbours. `npm run
 * districts:generate` writes the result to `districts.ts`; districts.test.ts checks that the committed
 * file equals what this builds, so a changed boundary file cannot leave a stale list behind.
 *
 * Neighbours inside one country come from the topology (`topojson-client`'s `neighbors`: shared arcs).
 * The two countries are separate files, so their arcs never meet: a Uganda district and a Kenya county
 * are neighbours when their borders come within CROSS_BORDER_DEGREES of each other (about 3 km), which
 * finds the land border (Busia, Tororo, Mbale ... Bungoma, Trans-Nzoia, West Pokot, Turkana) and the
 * lake border in Lake Victoria.
 *
 * Uganda's list is ISO 3166-2:UG's (districts-ug.ts); the boundary file predates the districts made since
 * 2016. Such a district is drawn inside the district it was carved from (`parent`) until its own boundary
 * is available: it neighbours its parent, its parent's neighbours and its parent's other new districts,
 * and they it (docs/decisions/0052).
 */
import { readFileSync } from 'node:fs';
import type { GeometryCollection, MultiPolygon, Polygon, Topology } from 'topojson-specification';
import { feature, neighbors } from 'topojson-client';
import { ugandaDistricts } from './districts-ug.ts';

export type DistrictRow = { code: string; name: string; country: 'UG' | 'KE'; neighbours: string[]; parent?: string };

type Props = { code: string; name: string; country: 'UG' | 'KE' };
type Geo = GeometryCollection<Props>;

export const CROSS_BORDER_DEGREES = 0.03;

const geoDir = new URL('../geo/', import.meta.url);

function load(file: string, object: string): { topo: Topology; geo: Geo } {
  const topo = JSON.parse(readFileSync(new URL(file, geoDir), 'utf8')) as Topology;
  return { topo, geo: topo.objects[object] as Geo };
}

function rings(topo: Topology, geo: Geo, i: number): number[][] {
  const f = feature(topo, geo.geometries[i] as Polygon | MultiPolygon) as unknown as {
    geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] };
  };
  const polys =
    f.geometry.type === 'Polygon'
      ? [f.geometry.coordinates as number[][][]]
      : (f.geometry.coordinates as number[][][][]);
  return polys.flat(2) as unknown as number[][];
}

function bbox(points: number[][]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

function near(a: number[][], b: number[][], d: number): boolean {
  const d2 = d * d;
  for (const [ax, ay] of a) {
    for (const [bx, by] of b) {
      const dx = ax - bx;
      const dy = ay - by;
      if (dx * dx + dy * dy <= d2) return true;
    }
  }
  return false;
}

/** The list, sorted by country (UG first) then code; neighbour codes sorted. */
export function buildDistricts(): DistrictRow[] {
  const ug = load('uganda-districts.topojson', 'districts');
  const ke = load('kenya-counties.topojson', 'counties');
  const rows = new Map<string, DistrictRow>();
  for (const { topo, geo } of [ug, ke]) {
    const adj = neighbors(geo.geometries as never);
    geo.geometries.forEach((g, i) => {
      const p = g.properties as Props;
      rows.set(p.code, {
        code: p.code,
        name: p.name,
        country: p.country,
        neighbours: adj[i].map((j) => (geo.geometries[j].properties as Props).code),
      });
    });
    void topo;
  }
  const ugPts = ug.geo.geometries.map((_, i) => rings(ug.topo, ug.geo, i));
  const kePts = ke.geo.geometries.map((_, i) => rings(ke.topo, ke.geo, i));
  const d = CROSS_BORDER_DEGREES;
  ugPts.forEach((a, i) => {
    const ba = bbox(a);
    kePts.forEach((b, j) => {
      const bb = bbox(b);
      if (ba[0] - d > bb[2] || bb[0] - d > ba[2] || ba[1] - d > bb[3] || bb[1] - d > ba[3]) return;
      if (!near(a, b, d)) return;
      const u = (ug.geo.geometries[i].properties as Props).code;
      const k = (ke.geo.geometries[j].properties as Props).code;
      rows.get(u)?.neighbours.push(k);
      rows.get(k)?.neighbours.push(u);
    });
  });
  for (const d of ugandaDistricts) {
    const row = rows.get(d.code);
    if (row && d.parent) throw new Error(`${d.code} has a boundary: drop its parent in districts-ug.ts`);
    if (!row && !d.parent) throw new Error(`${d.code} ${d.name} has neither a boundary nor a parent`);
  }
  const children = ugandaDistricts.filter((d) => d.parent);
  for (const d of children) {
    const parent = rows.get(d.parent as string);
    if (!parent) throw new Error(`${d.code}: parent ${d.parent} has no boundary`);
    const siblings = children.filter((c) => c.parent === d.parent && c.code !== d.code).map((c) => c.code);
    rows.set(d.code, {
      code: d.code,
      name: d.name,
      country: 'UG',
      neighbours: [parent.code, ...parent.neighbours, ...siblings],
      parent: parent.code,
    });
  }
  for (const d of children) {
    for (const n of rows.get(d.code)?.neighbours ?? []) rows.get(n)?.neighbours.push(d.code);
  }
  const unknown = [...rows.values()].filter(
    (r) => r.country === 'UG' && !ugandaDistricts.some((d) => d.code === r.code),
  );
  if (unknown.length) throw new Error(`not in ISO 3166-2:UG: ${unknown.map((r) => r.code).join(', ')}`);
  const list = [...rows.values()];
  for (const r of list) r.neighbours = [...new Set(r.neighbours)].filter((n) => n !== r.code).sort();
  return list.sort((a, b) => (a.country === b.country ? a.code.localeCompare(b.code) : a.country === 'UG' ? -1 : 1));
}

/** The TypeScript module `districts.ts` holds: data only, no imports, so any screen may load it. */
export function renderDistrictsModule(list: DistrictRow[]): string {
  const lines = list.map(
    (r) =>
      `  { code: ${JSON.stringify(r.code)}, name: ${JSON.stringify(r.name)}, country: '${r.country}', neighbours: [${r.neighbours.map((n) => `'${n}'`).join(', ')}]${r.parent ? `, parent: '${r.parent}'` : ''} },`,
  );
  return `// Generated by \`npm run districts:generate\` (packages/contract/src/districts.build.ts) from
// districts-ug.ts (ISO 3166-2:UG) and packages/contract/geo/ (Uganda: Natural Earth, public domain; Kenya:
// OpenStreetMap, ODbL 1.0; see geo/SOURCES.md). Do not edit by hand: districts.test.ts checks this file
// equals the generated one.

export type DistrictCountry = 'UG' | 'KE';
export type District = {
  /** ISO 3166-2 code: \`UG-411\`, \`KE-01\`. */
  readonly code: string;
  readonly name: string;
  readonly country: DistrictCountry;
  /** Codes of the districts/counties that share a border (across the UG-KE border too). */
  readonly neighbours: readonly string[];
  /**
   * A district newer than the boundary file: the code of the district it was carved from, whose
   * boundary it is drawn in until its own is available.
   */
  readonly parent?: string;
};

// biome-ignore format: one district per line
export const districts: readonly District[] = [
${lines.join('\n')}
];

/** The codes, for validation. */
export const districtCodes: readonly string[] = districts.map((d) => d.code);

const byCode = new Map(districts.map((d) => [d.code, d]));

/** The district with this code, or undefined. */
export function districtByCode(code: string): District | undefined {
  return byCode.get(code);
}

/** Whether \`code\` names a shipped district or county. */
export function isDistrictCode(code: string): boolean {
  return byCode.has(code);
}
`;
}
