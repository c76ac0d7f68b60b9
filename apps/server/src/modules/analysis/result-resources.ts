import type { AnalysisCrop, EducationalResource, ResourceTopic } from '@kutu/contract';

/** A resource shown with results, with the crop it is about (null: any crop). */
export interface CropResource {
  crop: AnalysisCrop | null;
  resource: EducationalResource;
}

function uniqueByUrl(list: EducationalResource[]): EducationalResource[] {
  const seen = new Set<string>();
  return list.filter((r) => !seen.has(r.url) && seen.add(r.url));
}

/**
 * The resources a result lists for its topics (docs/decisions/0049): those about its crop first, then
 * those about any crop; another crop's only when neither exists. A result whose crop was not said lists
 * them all, in order.
 */
export function resourcesFor(
  topics: ResourceTopic[],
  crop: AnalysisCrop | null,
  byTopic: Map<string, CropResource[]>,
): EducationalResource[] {
  const all = topics.flatMap((t) => byTopic.get(t) ?? []);
  if (!crop) return uniqueByUrl(all.map((r) => r.resource));
  const fitting = [...all.filter((r) => r.crop === crop), ...all.filter((r) => r.crop === null)];
  return uniqueByUrl((fitting.length > 0 ? fitting : all).map((r) => r.resource));
}
