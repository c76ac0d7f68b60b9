/** onnxruntime's wasm size in bytes, set at build time (vite.config.ts `define`). */
declare const __ORT_WASM_BYTES__: number;
