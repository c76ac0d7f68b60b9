import { geoContains, geoDistance } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The shipped boundaries (packages/contract/geo, SOURCES.md): Uganda's 112 districts (Natural Earth,
 * public domain) and Kenya's 47 counties (OpenStreetMap, ODbL). Each geometry's `id` is its district code.
 * They are fetched as two static files, not bundled into the map's code (decision 0035): the service
 * worker precaches them, so the map and "use my location" work with no signal.
 */
export type Country = 'UG' | 'KE';
export const countries: readonly Country[] = ['UG', 'KE'];

export interface DistrictProps {
  code: string;
  name: string;
  country: Country;
}
export type DistrictFeature = Feature<Polygon | MultiPolygon, DistrictProps>;
export type DistrictTopology = Topology<{ [name: string]: GeometryCollection<DistrictProps> }>;

/** The TopoJSON object holding each country's districts. */
export const TOPOLOGY_OBJECT: Record<Country, string> = { UG: 'districts', KE: 'counties' };

/** A topology's districts as GeoJSON features (exterior rings wound as d3-geo expects, SOURCES.md). */
export function districtFeatures(topology: DistrictTopology, country: Country): DistrictFeature[] {
  const object = topology.objects[TOPOLOGY_OBJECT[country]];
  // Never on screen: the shipped files have these objects (geo.test.ts reads them).
  if (!object) throw new Error(`${country}: ${TOPOLOGY_OBJECT[country]}`);
  return (feature(topology, object) as FeatureCollection<Polygon | MultiPolygon, DistrictProps>).features;
}

/**
 * How far outside every polygon a position may be and still count for the nearest district, in radians
 * of arc (~5 km): the boundaries are simplified, so a farm on the coast or a lake shore can fall just
 * outside its district's outline. Farther out (another country, the open lake) there is no answer.
 */
export const NEAR_EDGE = 5 / 6371;

function* vertices(f: DistrictFeature): Generator<Position> {
  const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  for (const polygon of polygons) for (const ring of polygon) yield* ring;
}

/** Each outline's longitude/latitude box, computed once (none of these districts crosses 180°). */
const boxes = new WeakMap<DistrictFeature, [number, number, number, number]>();
function box(f: DistrictFeature): [number, number, number, number] {
  let b = boxes.get(f);
  if (!b) {
    b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [lon, lat] of vertices(f)) {
      b = [Math.min(b[0], lon!), Math.min(b[1], lat!), Math.max(b[2], lon!), Math.max(b[3], lat!)];
    }
    boxes.set(f, b);
  }
  return b;
}
/** NEAR_EDGE in degrees with room to spare (a degree of latitude is ~111 km; longitude near the equator). */
const MARGIN_DEGREES = 0.1;
const nearBox = (f: DistrictFeature, [lon, lat]: [number, number], margin: number) => {
  const [w, s, e, n] = box(f);
  return lon >= w - margin && lon <= e + margin && lat >= s - margin && lat <= n + margin;
};

/**
 * The district containing `[longitude, latitude]`, point in polygon on the sphere (d3-geo `geoContains`),
 * or, just outside every outline, the district with the nearest boundary point within NEAR_EDGE. Runs on
 * the phone: the position never leaves it, only the chosen district's code does.
 */
export function districtAt(features: readonly DistrictFeature[], point: [number, number]): DistrictFeature | null {
  const candidates = features.filter((f) => nearBox(f, point, MARGIN_DEGREES));
  const inside = candidates.find((f) => nearBox(f, point, 0) && geoContains(f, point));
  if (inside) return inside;
  let nearest: DistrictFeature | null = null;
  let best = NEAR_EDGE;
  for (const f of candidates) {
    for (const v of vertices(f)) {
      const d = geoDistance(point, v as [number, number]);
      if (d < best) {
        best = d;
        nearest = f;
      }
    }
  }
  return nearest;
}
