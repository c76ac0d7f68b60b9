import { describe, expect, it } from 'vitest';
import { formatDateTime, zoneName } from './format.ts';

describe('formatDateTime', () => {
  const at = new Date('2026-03-02T08:00:00Z');

  it('shows East Africa Time by its name, not as an offset', () => {
    expect(formatDateTime(at, 'Africa/Kampala')).toBe('2 Mar 2026, 11:00 EAT');
    expect(formatDateTime(at, 'Africa/Nairobi')).toBe('2 Mar 2026, 11:00 EAT');
  });

  it("names other viewers' zones too", () => {
    expect(zoneName(at, 'America/New_York')).toBe('EST');
    expect(zoneName(at, 'UTC')).toBe('UTC');
    expect(formatDateTime(at, 'Europe/London')).toBe('2 Mar 2026, 08:00 GMT');
  });

  it('is empty for no date', () => {
    expect(formatDateTime(null)).toBe('');
  });
});
