/**
 * District and county boundaries as GeoJSON geometries (Node only: reads the shipped files in
 * `packages/contract/geo/`; see geo/SOURCES.md for their sources, licences and attribution). The open
 * feed (docs/decisions/0033) uses them; the web app draws its own from the same files.
 */
import { readFileSync } from 'node:fs';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { feature } from 'topojson-client';

export type BoundaryGeometry = { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown[] };

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

/** The boundary of a district or county, or null for an unknown code. */
export function boundaryOf(code: string): BoundaryGeometry | null {
  byCode ??= load();
  return byCode.get(code) ?? null;
}
