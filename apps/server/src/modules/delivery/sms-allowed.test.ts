import { describe, expect, it } from 'vitest';
import type { MessageKind } from '../../lib/deliverer.ts';
import { smsAllowed } from './sms-allowed.ts';

const kinds: MessageKind[] = ['alert', 'reminder', 'service', 'requested'];
const allowed = (smsAlerts: boolean, stopped: boolean) =>
  kinds.filter((k) => smsAllowed({ smsAlerts, smsStoppedAt: stopped ? new Date() : null }, k));

describe('smsAllowed (docs/decisions/0050, 0051)', () => {
  it('stops alerts and reminders with SMS alerts off, every kind but what was asked for now after STOP', () => {
    expect(allowed(true, false)).toEqual(kinds);
    expect(allowed(false, false)).toEqual(['service', 'requested']);
    expect(allowed(true, true)).toEqual(['requested']);
    expect(allowed(false, true)).toEqual(['requested']);
  });
});
