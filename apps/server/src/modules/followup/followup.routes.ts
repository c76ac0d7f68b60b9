import { analysisApi, openFollowUpList } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { FollowUpService } from './followup.service.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';

/** What a farmer may say a new photo follows up (docs/decisions/0044, 0059). */
export function followUpRoutes(app: App, { services: { followUps } }: RouteContext<{ followUps: FollowUpService }>) {
  app.get(
    analysisApi.openFollowUps,
    {
      schema: {
        tags: ['rust-detection'],
        description:
          "The caller's diagnoses whose follow-up reminder is open (advice to treat, no follow-up photo yet), newest first: the ids a new photo's `follow_up_of` may name.",
        response: { 200: openFollowUpList, ...errorReplies(401, 403) },
      },
      config: guard('farmer'),
    },
    async (req) => ({ results: await followUps.openFor(caller(req).userId) }),
  );
}
