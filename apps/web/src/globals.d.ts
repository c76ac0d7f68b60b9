/** onnxruntime's wasm size in bytes, set at build time (vite.config.ts `define`). */
declare const __ORT_WASM_BYTES__: number;
/** The phone's voice data (English and Kiswahili), decoded bytes: its download's progress counts up to it. */
declare const __VOICE_DATA_BYTES__: number;

/** A locale file's part (lib/locale-parts.ts), split at build time by vite.config.ts. */
declare module '*.json?part=first' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=account' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=staff' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=officer' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=fields' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=community' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=consultations' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?part=outbreak' {
  const strings: Record<string, unknown>;
  export default strings;
}

/** libphonenumber's metadata for the phone input's countries, cut at build time by vite.config.ts. */
declare module 'virtual:phone-metadata' {
  export const metadata: import('libphonenumber-js/core').MetadataJson;
  export const examples: import('libphonenumber-js/core').Examples;
}
