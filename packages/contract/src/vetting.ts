import { z } from 'zod';
import { expertDetails, vettingStatuses } from './auth.ts';
import { isoDateTime, pageQuery, paginated } from './common.ts';
import { languages } from './enums.ts';

export const expertApplicationsQuery = pageQuery.extend({
  status: z.enum(vettingStatuses).optional().describe('Only applications in this state; left out: all'),
});
export type ExpertApplicationsQuery = z.input<typeof expertApplicationsQuery>;

export const expertApplication = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  language: z.enum(languages),
  applied_at: isoDateTime,
  status: z.enum(vettingStatuses),
  reason: z.string().nullable(),
  decided_at: isoDateTime.nullable(),
  /** The administrator who decided, by username. */
  decided_by: z.string().nullable(),
  expert: expertDetails,
});
export type ExpertApplication = z.infer<typeof expertApplication>;
export const expertApplicationPage = paginated(expertApplication).extend({
  pending_count: z.number().int().describe('How many applications wait for a decision (all pages)'),
});
export type ExpertApplicationPage = z.infer<typeof expertApplicationPage>;

/**
 * POST approve: the state the administrator saw. A refused application is approved only when the
 * administrator asks for it (`from: 'refused'`), so an approval racing a refusal loses with 409.
 */
export const approveApplicationBody = z
  .object({
    from: z.enum(['pending', 'refused'], { error: 'from must be pending or refused' }).default('pending'),
  })
  .nullish();
export type ApproveApplicationBody = z.input<typeof approveApplicationBody>;

export const REFUSAL_REASON_MAX = 500;
export const refuseApplicationBody = z.object({
  reason: z
    .string({ error: 'Say why the application is refused' })
    .trim()
    .min(3, 'Say why the application is refused')
    .max(REFUSAL_REASON_MAX, `The reason must be at most ${REFUSAL_REASON_MAX} characters`),
});
export type RefuseApplicationBody = z.infer<typeof refuseApplicationBody>;
