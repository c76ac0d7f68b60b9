import { sql } from 'drizzle-orm';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type bulkSmsKeys, smsMessage } from '../i18n/sms-texts.ts';
import type { TellEachFn } from './deliverer.ts';

/*
 * A fan-out (`tellEach`) sends one text to every farmer of a district: only a bulk text, held to one GSM-7
 * message in every language (i18n/bulk-sms.test.ts), may go that way. The type says so; `tsc -p apps/server`
 * fails on the `@ts-expect-error` below if TellEachFn takes any SMS key again.
 */
describe('a fan-out takes only the bulk texts', () => {
  it('types its SMS as a bulk key', () => {
    const sent: string[] = [];
    const tellEach: TellEachFn = async (_people, says) => {
      for (const say of Object.values(says)) if (say.sms) sent.push(say.sms.key);
      return { told: 0, last: null };
    };
    const people = sql`select 1 as id, 'a' as variant`;
    void tellEach(people, { a: { key: 'k', kind: 'alert', sms: smsMessage('outbreak.alert.sms', { district: 'X' }) } });
    // @ts-expect-error a text of two messages, not a checked bulk text, is no fan-out's
    void tellEach(people, { a: { key: 'k', kind: 'service', sms: smsMessage('notifications.reviewSms') } });
    expectTypeOf<NonNullable<Parameters<TellEachFn>[1][string]['sms']>['key']>().toEqualTypeOf<
      (typeof bulkSmsKeys)[number]
    >();
    expect(sent).toEqual(['outbreak.alert.sms', 'notifications.reviewSms']);
  });
});
