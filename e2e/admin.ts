/**
 * The administrator of the e2e runs, made with the real command (`apps/server/src/cli/admin-create.ts`)
 * before the server starts (playwright.config.ts): the only way to get an admin (docs/decisions/0027).
 */
export const E2E_ADMIN = {
  email: 'e2e-admin@example.com',
  phone: '+256700999001',
  password: 'Adm1n!Kutu-e2e',
} as const;
