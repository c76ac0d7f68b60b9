import { describe, expect, it } from 'vitest';
import { openRiskFeature } from './forecast.ts';
import { boundaryGeometry } from './geojson.ts';
import { openFeedFeature } from './outbreak.ts';

describe('the open feeds draw a district with one Feature schema', () => {
  it('gives the outbreak feed and the risk feed the same geometry and place, each its own crop and figures', () => {
    for (const feature of [openFeedFeature, openRiskFeature]) expect(feature.shape.geometry).toBe(boundaryGeometry);
    const place = (f: typeof openFeedFeature | typeof openRiskFeature) =>
      Object.keys(f.shape.properties.shape).slice(0, 6);
    expect(place(openFeedFeature)).toEqual(['code', 'name', 'country', 'crop', 'boundary', 'boundary_note']);
    expect(place(openRiskFeature)).toEqual(place(openFeedFeature));
    expect(Object.keys(openRiskFeature.shape.properties.shape).slice(6)).toEqual(['worst', 'days']);
    expect(Object.keys(openFeedFeature.shape.properties.shape).slice(6)).toEqual(['weeks']);
  });
});
