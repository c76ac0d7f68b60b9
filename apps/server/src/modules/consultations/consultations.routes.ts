import type { App, ModuleDeps } from '../../app.ts';

export function consultationsRoutes(_app: App, _deps: ModuleDeps) {}
