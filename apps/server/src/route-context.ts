import type { App, ModuleDeps } from './deps.ts';

/**
 * What every routes function and every jobs function receives (docs/decisions/0056): the adapters and
 * shared parts (`deps`) and the one instance of each service it names (`services`, built in services.ts).
 * A module types the services it takes, `RouteContext<{ outbreak: OutbreakService }>`, and never builds
 * one itself; routes.ts checks every list against services.ts's `Services`. This file imports no service
 * and not services.ts: every module imports it, so an import of services.ts here would point every module
 * back up at all the others (docs/decisions/0133; .dependency-cruiser.json's `no-arrow-up` holds it).
 */
export interface RouteContext<S extends object = Record<never, never>> {
  deps: ModuleDeps;
  services: S;
}

/** The one shape of a routes (or jobs) function, over the services `S` it is handed; routes.ts lists them all. */
export type RouteModule<S extends object> = (app: App, ctx: RouteContext<S>) => void;
