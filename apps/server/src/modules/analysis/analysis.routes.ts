import type { App, ModuleDeps } from '../../app.ts';

export function analysisRoutes(_app: App, _deps: ModuleDeps) {}
