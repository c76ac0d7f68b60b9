import { z } from 'zod';

/** A shipped boundary's geometry (the GeoJSON files under packages/contract's boundaries); null where none. */
export const boundaryGeometry = z
  .object({ type: z.enum(['Polygon', 'MultiPolygon']), coordinates: z.array(z.any()) })
  .nullable();

/**
 * One Feature of an open GeoJSON feed (the outbreak feed, the rust-weather risk): a district (Uganda) or
 * county (Kenya) and crop, its geometry the shipped boundary, and the feed's own `properties` after the
 * place's. Written once, so the two feeds name and draw a place alike.
 */
export const districtFeature = <Crop extends z.ZodType, Own extends z.ZodRawShape>(crop: Crop, own: Own) =>
  z.object({
    type: z.literal('Feature'),
    id: z.string(),
    geometry: boundaryGeometry,
    properties: z.object({
      code: z.string(),
      name: z.string(),
      country: z.enum(['UG', 'KE']),
      crop,
      /** `parent:<name>` when the district is newer than the boundary file and drawn inside its parent's. */
      boundary: z.string().optional(),
      /** A plain sentence saying so. */
      boundary_note: z.string().optional(),
      ...own,
    }),
  });
