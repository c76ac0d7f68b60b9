import { useQuery } from '@tanstack/react-query';
import type { BackupStatus } from '@kutu/contract';
import { backupApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/** The worker's scheduled backups: the newest verified one and the recent history. */
export const useBackupStatus = () =>
  useQuery({
    queryKey: ['backups'],
    queryFn: ({ signal }) => http.get<BackupStatus>(backupApi.status, undefined, signal),
  });
