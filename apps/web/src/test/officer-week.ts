import type { OfficerMeReply, OfficerWeek } from '@kutu/contract';
import { fakeNetwork, json } from './fakeServer.ts';
import { me, week } from './officer-week.fixture.ts';

/**
 * The network of the week screen's tests: `who` as the officer and `shown` as Kumi's week, nothing else
 * (404); returns what the page sent.
 */
export function serveWeek(shown: OfficerWeek = week, who: OfficerMeReply = me) {
  return fakeNetwork(({ url }) => {
    if (url.startsWith('/api/extension/me/')) return json(who);
    if (url.startsWith('/api/extension/districts/UG-208/week/')) return json(shown);
    return json({}, 404);
  });
}
