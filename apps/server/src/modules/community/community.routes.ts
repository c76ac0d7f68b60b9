import type { App, ModuleDeps } from '../../app.ts';

export function communityRoutes(_app: App, _deps: ModuleDeps) {}
