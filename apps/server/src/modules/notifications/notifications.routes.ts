import type { App, ModuleDeps } from '../../app.ts';

export function notificationsRoutes(_app: App, _deps: ModuleDeps) {}
