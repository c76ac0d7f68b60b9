import type { App, ModuleDeps } from './deps.ts';
import type { Services } from './services.ts';

/**
 * What every routes function and every jobs function receives (docs/decisions/0056): the adapters and
 * shared parts (`deps`) and the one instance of each service (`services`, built in services.ts). A
 * module takes from it what it serves; it never builds a service itself.
 */
export interface RouteContext {
  deps: ModuleDeps;
  services: Services;
}

/** The one shape of a routes (or jobs) function; routes.ts lists them all. */
export type RouteModule = (app: App, ctx: RouteContext) => void;
