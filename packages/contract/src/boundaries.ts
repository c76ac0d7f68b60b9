/**
 * District and county boundaries as GeoJSON geometries (Node only: reads the shipped files in
 * `packages/contract/geo/`; see geo/SOURCES.md for their sources, licences and attribution). The open
 * feed (docs/decisions/0033) uses them; the web app draws its own from the same files.
 */
import { readFileSync } from 'node:fs';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { feature } from 'topojson-client';
import { districtByCode } from './districts.ts';

export type BoundaryGeometry = { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown[] };

/** What every open GeoJSON drawn with these boundaries must say of them (geo/SOURCES.md). */
export const BOUNDARY_ATTRIBUTION = [
  'Uganda districts: ISO 3166-2:UG codes and names; boundaries Natural Earth (public domain). A district newer than those boundaries is drawn inside the district it was made from (see boundary_note).',
  'Kenya county boundaries © OpenStreetMap contributors, available under the Open Database License (ODbL): https://www.openstreetmap.org/copyright',
] as const;
/** The geometry's licence, for an open feed's `licence` after its own data's. */
export const BOUNDARY_LICENCE = 'Kenya county geometry: ODbL 1.0 (https://opendatacommons.org/licenses/odbl/1-0/).';

let byCode: Map<string, BoundaryGeometry> | null = null;

function load(): Map<string, BoundaryGeometry> {
  const out = new Map<string, BoundaryGeometry>();
  for (const [file, object] of [
    ['uganda-districts.topojson', 'districts'],
    ['kenya-counties.topojson', 'counties'],
  ] as const) {
    const topo = JSON.parse(readFileSync(new URL(`../geo/${file}`, import.meta.url), 'utf8')) as Topology;
    const fc = feature(topo, topo.objects[object] as GeometryCollection<{ code: string }>);
    for (const f of fc.features) out.set(f.properties.code, f.geometry as unknown as BoundaryGeometry);
  }
  return out;
}

/**
 * The boundary of a district or county, or null for an unknown code. A district newer than the boundary
 * file gets its parent's (the district it was carved from), as `boundaryNote` says (docs/decisions/0052).
 */
export function boundaryOf(code: string): BoundaryGeometry | null {
  byCode ??= load();
  return byCode.get(code) ?? byCode.get(districtByCode(code)?.parent ?? '') ?? null;
}

/**
 * For a district drawn inside its parent's boundary: `boundary: 'parent:<name>'` and a plain note saying
 * so; nothing for a district with its own boundary.
 */
export function boundaryNote(code: string): { boundary?: string; boundary_note?: string } {
  const district = districtByCode(code);
  const parent = district?.parent ? districtByCode(district.parent) : undefined;
  if (!district || !parent) return {};
  return {
    boundary: `parent:${parent.name}`,
    boundary_note: `${district.name} is newer than the boundary map Kutu uses: it is drawn inside ${parent.name}, the district it was made from, until its own boundary is available.`,
  };
}

type Ring = [number, number][];

/** Whether (lng, lat) lies inside the ring (even-odd ray casting; flat, which is right at a district's size). */
function inRing(ring: Ring, lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Whether the map point lies inside the district's boundary (its parent's for a district newer than the
 * boundary file, as `boundaryOf` draws it): inside the outer ring of one of its polygons and outside that
 * polygon's holes. False for an unknown code.
 */
export function pointInDistrict(code: string, point: { lat: number; lng: number }): boolean {
  const shape = boundaryOf(code);
  if (!shape) return false;
  const polygons = (shape.type === 'Polygon' ? [shape.coordinates] : shape.coordinates) as Ring[][];
  return polygons.some(
    ([outer, ...holes]) =>
      inRing(outer, point.lng, point.lat) && !holes.some((hole) => inRing(hole, point.lng, point.lat)),
  );
}
