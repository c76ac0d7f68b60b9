import { districtByCode, districts } from '@kutu/contract/districts';
import type { DistrictFeature } from '../../../lib/geo/geo.ts';

/**
 * Districts newer than the shipped boundary file have no shape of their own: each is drawn inside the
 * district it was carved from (its `parent`) until its own boundary is available (docs/decisions/0052).
 */
export const parentOf: ReadonlyMap<string, string> = new Map(
  districts.flatMap((d) => (d.parent ? [[d.code, d.parent] as const] : [])),
);

/** The newer districts drawn inside each district, by the parent's code. */
export const childrenOf: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [child, parent] of parentOf) out.set(parent, [...(out.get(parent) ?? []), child]);
  return out;
})();

/** The country's shapes plus one per newer district, carrying its parent's shape, for lists and lookups. */
export function withNewerDistricts(features: readonly DistrictFeature[]): DistrictFeature[] {
  const byCode = new Map(features.map((f) => [f.properties.code, f]));
  const extra: DistrictFeature[] = [];
  for (const [child, parent] of parentOf) {
    const shape = byCode.get(parent);
    const district = districtByCode(child);
    if (!shape || !district) continue;
    extra.push({ ...shape, id: child, properties: { ...shape.properties, code: child, name: district.name } });
  }
  return [...features, ...extra];
}
