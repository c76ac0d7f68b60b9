import { describe, expect, it } from 'vitest';
import { createSlotBody, manageBookingBody, parseWireDateTime } from './consultations.ts';

const iso = (s: string) => parseWireDateTime(s)?.toISOString() ?? null;

describe('parseWireDateTime', () => {
  it('reads the spec form in East Africa Time', () => {
    expect(iso('2026-12-01 09:00:00')).toBe('2026-12-01T06:00:00.000Z');
    expect(iso('2026-12-01 09:00')).toBe('2026-12-01T06:00:00.000Z');
    expect(iso('2026-12-01T02:30:15')).toBe('2026-11-30T23:30:15.000Z');
  });

  it('reads ISO 8601 with Z or an offset as given', () => {
    expect(iso('2026-12-01T06:00:00Z')).toBe('2026-12-01T06:00:00.000Z');
    expect(iso('2026-12-01T06:00:00.250Z')).toBe('2026-12-01T06:00:00.250Z');
    expect(iso('2026-12-01T09:00:00+03:00')).toBe('2026-12-01T06:00:00.000Z');
    expect(iso('2026-12-01T01:00:00-0530')).toBe('2026-12-01T06:30:00.000Z');
  });

  it('refuses impossible dates and other text', () => {
    for (const bad of ['2026-04-31 09:00:00', '2027-02-29 09:00:00', '2026-12-01 24:00:00', '2026-12-01', 'soon', '']) {
      expect(parseWireDateTime(bad), bad).toBeNull();
    }
    expect(iso('2028-02-29 09:00:00')).toBe('2028-02-29T06:00:00.000Z');
  });
});

describe('request schemas', () => {
  it('names the field that is wrong', () => {
    const r = createSlotBody.safeParse({ start_time: '', end_time: 'later' });
    expect(r.success).toBe(false);
    const messages = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(messages.start_time).toBe('Start time is required');
    expect(messages.end_time).toContain('End time must be a date and time');
  });

  it('treats an empty selected date and reason as not given', () => {
    const r = manageBookingBody.parse({ booking_id: '4', action: 'reject', selected_date: '', reason: '  ' });
    expect(r).toEqual({ booking_id: 4, action: 'reject' });
  });
});
