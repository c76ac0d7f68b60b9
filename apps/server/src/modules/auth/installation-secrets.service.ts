import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { createInstallationSecretsRepo, type SecretName } from './installation-secrets.repo.ts';

/**
 * The configuration with the installation's own signing secrets where JWT_ACCESS_SECRET and
 * JWT_REFRESH_SECRET are unset: random on first start, kept in the database so every process of the
 * installation signs alike and a backup restores them with the sessions they key (docs/decisions/0097).
 */
export async function withInstallationSecrets(config: Config, db: Db): Promise<Config> {
  const offered: Partial<Record<SecretName, string>> = {};
  if (config.jwt.stored.access) offered.jwt_access = randomBytes(32).toString('base64url');
  if (config.jwt.stored.refresh) offered.jwt_refresh = randomBytes(32).toString('base64url');
  const kept = await createInstallationSecretsRepo(db).keepFirst(offered);
  return {
    ...config,
    jwt: {
      ...config.jwt,
      accessSecret: kept.jwt_access ?? config.jwt.accessSecret,
      refreshSecret: kept.jwt_refresh ?? config.jwt.refreshSecret,
    },
  };
}
