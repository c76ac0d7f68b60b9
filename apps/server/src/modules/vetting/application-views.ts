import { type Application, type ApprovalRole, districtByCode } from '@kutu/contract';
import type { ApplicationRow } from './applications.repo.ts';

/** The shipped districts among these codes, with their names. */
export const namedDistricts = (codes: string[]) =>
  codes.flatMap((code) => {
    const d = districtByCode(code);
    return d ? [{ code, name: d.name, country: d.country }] : [];
  });

/** What every application shows, whatever its role. */
function common(row: ApplicationRow) {
  const a = row.application;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    language: row.language,
    applied_at: a.appliedAt.toISOString(),
    status: a.status,
    reason: a.reason,
    decided_at: a.decidedAt?.toISOString() ?? null,
    decided_by: row.decidedBy,
  };
}

/**
 * An application as the administrator's list shows it, by role: the common part and the role's own
 * facts under its name (the contract's `application`).
 */
export const APPLICATION_VIEWS = {
  expert: (row: ApplicationRow): Application => {
    const p = row.expert;
    return {
      ...common(row),
      role: 'expert',
      expert: {
        areas_of_expertise: p?.areasOfExpertise ?? '',
        certifications: p?.certifications ?? '',
        bio: p?.bio ?? '',
        experience_years: p?.experienceYears ?? 0,
        institution: p?.institution ?? '',
        languages_spoken: p?.languagesSpoken ?? '',
        social_links: p?.socialLinks ?? '',
      },
    };
  },
  officer: (row: ApplicationRow): Application => ({
    ...common(row),
    role: 'officer',
    officer: {
      office: row.officer?.office ?? '',
      districts: namedDistricts(row.officer?.districts ?? []),
      national: row.officer?.national ?? false,
    },
  }),
} satisfies Record<ApprovalRole, (row: ApplicationRow) => Application>;
