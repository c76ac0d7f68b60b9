import { z } from 'zod';
import { expertDetails, vettingStatuses } from './auth.ts';
import { approvalRoles, isoDateTime, pageQuery, paginated, rowId } from './common.ts';
import { namedDistrict } from './extension.ts';
import { languages } from './enums.ts';

export const applicationsQuery = pageQuery.extend({
  status: z.enum(vettingStatuses).optional().describe('Only applications in this state; left out: all'),
});
export type ApplicationsQuery = z.input<typeof applicationsQuery>;

/** The list's and the decisions' path: the role applied for, and the applicant's user id. */
export const applicationRoleParams = z.object({
  role: z.enum(approvalRoles, { error: `role must be one of ${approvalRoles.join(', ')}` }),
});
export const applicationParams = applicationRoleParams.extend({ id: rowId() });

/** What every application shows, whatever its role. */
const applicationCommon = z.object({
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
});

/**
 * An application for any role that needs approval (docs/decisions/0093): the common part, and the
 * role's own facts under its name. A new role adds its member here.
 */
export const application = z.discriminatedUnion('role', [
  applicationCommon.extend({ role: z.literal('expert'), expert: expertDetails }),
  applicationCommon.extend({
    role: z.literal('officer'),
    officer: z.object({
      office: z.string(),
      districts: z.array(namedDistrict),
      /** Granted the national bulletin by an administrator (docs/decisions/0122). */
      national: z.boolean(),
    }),
  }),
]);
export type Application = z.infer<typeof application>;
export const applicationPage = paginated(application).extend({
  pending_count: z.number().int().describe('How many applications wait for a decision (all pages)'),
});
export type ApplicationPage = z.infer<typeof applicationPage>;

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

/** PUT an approved officer's national scope (docs/decisions/0122): the national bulletin, or not. */
export const nationalOfficerBody = z.object({
  national: z.boolean({ error: 'national must be true or false' }),
});
export type NationalOfficerBody = z.infer<typeof nationalOfficerBody>;
export const officerIdParams = z.object({ id: rowId() });
