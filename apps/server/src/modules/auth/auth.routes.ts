import type { App, ModuleDeps } from '../../app.ts';

export function authRoutes(_app: App, _deps: ModuleDeps) {}
