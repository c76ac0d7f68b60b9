import { type DistrictCountry, districts } from '@kutu/contract/districts';

const countries = ['UG', 'KE'] as const satisfies readonly DistrictCountry[];
const usedBy = new Map<string, number>();
for (const d of districts) usedBy.set(d.name, (usedBy.get(d.name) ?? 0) + 1);

/**
 * The districts and counties as a select lists them: grouped by country, by name, and a name both
 * countries use (Busia) followed by its country, so the choice still says which once it is made.
 */
export function districtGroups(countryName: (country: DistrictCountry) => string) {
  return countries.map((country) => ({
    group: countryName(country),
    items: districts
      .filter((d) => d.country === country)
      .map((d) => ({
        value: d.code,
        label: (usedBy.get(d.name) ?? 0) > 1 ? `${d.name} (${countryName(country)})` : d.name,
      }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  }));
}
