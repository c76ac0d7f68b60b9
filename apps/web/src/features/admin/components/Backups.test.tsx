import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { BackupEntry, BackupStatus } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { Backups } from './Backups.tsx';

const good: BackupEntry = {
  id: 7,
  file: 'kutu-20270301-060000.tar.gz',
  started_at: '2027-03-01T06:00:00.000Z',
  finished_at: '2027-03-01T06:01:00.000Z',
  size_bytes: 52_400_000,
  verified: true,
  error: null,
  removed: false,
};

afterEach(() => vi.unstubAllGlobals());

const serve = (status: BackupStatus) =>
  fakeNetwork(({ url }) => (url.startsWith('/api/admin/backups/') ? json(status) : json({}, 404)));

describe('Backups', () => {
  it('shows when the last verified backup was taken, its size and a failed try since', async () => {
    const failed: BackupEntry = {
      ...good,
      id: 8,
      started_at: '2027-03-02T06:00:00.000Z',
      size_bytes: null,
      verified: false,
      error: 'No space left on device',
    };
    serve({ every_hours: 24, keep: 7, last_verified: good, recent: [failed, good] });
    renderWithProviders(<Backups />);
    const card = await screen.findByRole('article', { name: 'Backups' });
    expect(card.textContent).toMatch(/Last backup: .*2027.*, 52\.4 MB/);
    expect(card.textContent).toContain('Verified');
    expect(card.textContent).toMatch(/The last try failed .*: No space left on device/);
    expect(card.textContent).toContain('A backup is taken every 24 hours; the last 7 are kept.');
  });

  it('says when none was taken and when the schedule is off', async () => {
    serve({ every_hours: 0, keep: 7, last_verified: null, recent: [] });
    renderWithProviders(<Backups />);
    const card = await screen.findByRole('article', { name: 'Backups' });
    expect(card.textContent).toContain('No backup has been taken yet.');
    expect(card.textContent).toContain('Scheduled backups are off');
  });
});
