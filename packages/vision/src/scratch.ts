/**
 * Working arrays the rust reading reuses from one photo to the next instead of allocating them afresh. Fresh typed
 * arrays of this size live outside the JavaScript heap, and a megabyte and a half of them a photo made the
 * collector run a full collection every few photos on a server whose heap holds the whole app: the reading then
 * cost the path twice what it costs alone (bench/reports/0094-classify-allocations.md). The reading is
 * synchronous, so one set serves every call; an array handed back from a reading is never one of these.
 */
type Numbers = Float64Array | Float32Array | Uint32Array | Uint8Array | Uint8ClampedArray | Int32Array | Uint16Array;

const kept = new Map<string, Numbers>();

/** The working array named `name` with `length` zeros, reused while the length stays the same. */
export function scratch<T extends Numbers>(name: string, make: new (length: number) => T, length: number): T {
  const found = kept.get(name);
  if (found instanceof make && found.length === length) return found.fill(0) as T;
  const fresh = new make(length);
  kept.set(name, fresh);
  return fresh;
}
