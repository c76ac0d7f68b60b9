import { districtParams, extensionApi, heldWalks, idParam } from '@kutu/contract';
import { z } from 'zod';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createHeldWalksService } from './held-walks.service.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';

const errors = errorReplies(400, 401, 403, 404);
const tags = ['extension'];

/** Walks that wait for an expert or officer before they count (docs/decisions/0105): the list, a confirmation. */
export function heldWalksRoutes(
  app: App,
  { services: { heldWalks: held } }: RouteContext<{ heldWalks: ReturnType<typeof createHeldWalksService> }>,
) {
  const judges = guard('expert', 'officer');

  app.get(
    extensionApi.heldWalks,
    {
      schema: {
        tags,
        description:
          "The district's walks that count in no figure until confirmed: a field far from its farmer's district, or a share of plants with rust far from the district's other walks. Experts: any district; officers: their own.",
        params: districtParams,
        response: { 200: heldWalks, ...errors },
      },
      config: judges,
    },
    async (req) => held.list(caller(req), req.params.code),
  );

  app.post(
    extensionApi.confirmWalk,
    {
      schema: {
        tags,
        description: 'Confirms a held walk: from now on it counts in the open feed and the officers’ week.',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
      config: judges,
    },
    async (req, reply) => {
      await held.confirm(caller(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}
