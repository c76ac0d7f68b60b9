import type { App, ModuleDeps } from '../../app.ts';

export function dashboardRoutes(_app: App, _deps: ModuleDeps) {}
