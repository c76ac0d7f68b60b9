import type { App, ModuleDeps } from '../../app.ts';

export function trainingRoutes(_app: App, _deps: ModuleDeps) {}
