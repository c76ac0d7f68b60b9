import { type Language, ussdMenuNumber, WALK_MAX_PLANTS } from '@kutu/contract';
import { walkStopsOf } from '@kutu/contract/field-rules';
import { type Params, t } from '../../i18n/i18n.ts';
import { type SmsKey, smsText, smsTexts } from '../../i18n/sms-texts.ts';
import { smsParts, smsSafe } from '../../lib/sms-text.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { PhoneField } from './menu.ts';
import type { SmsCommand } from './sms-keywords.ts';
import { walkAnswer, type WalksService } from '../fields/walks.service.ts';

/** A reply to an inbound SMS: its text's key and values, and the event it answers when it must go once. */
export interface SmsReply {
  key: SmsKey;
  params?: Params;
  event?: string;
}

/**
 * The farmer's fields as FIELDS lists them ("1 Near the river (maize), 2 Field 2 (beans)"), as many as fit the
 * messages `smsIn.fields` may take, then "and 12 more". A name keeps its GSM-7 characters only (else "#3"),
 * so the reply is not sent as UCS-2 at 70 characters a message.
 */
export function fieldList(language: Language, rows: Pick<PhoneField, 'number' | 'name' | 'crop'>[]): string {
  const line = (f: (typeof rows)[number]) =>
    `${f.number} ${smsSafe(f.name) || `#${f.number}`} (${t(language, `fields.crop.${f.crop}`)})`;
  const lines = rows.map(line);
  for (let k = lines.length; k > 1; k--) {
    const shown = lines.slice(0, k).join(', ');
    const list = k < lines.length ? t(language, 'smsIn.fieldsMore', { list: shown, count: lines.length - k }) : shown;
    const text = smsText(language, 'smsIn.fields', { list, first: rows[0].number });
    if (smsParts(text).length <= smsTexts['smsIn.fields'].parts) return list;
  }
  return lines.length > 1 ? t(language, 'smsIn.fieldsMore', { list: lines[0], count: lines.length - 1 }) : lines[0];
}

/**
 * FIELDS and WALK by SMS (docs/decisions/0078): the list of the farmer's fields with their numbers, and a walk
 * recorded from two counts and answered with its advice in one SMS. A wrong number or count is answered
 * with how to write it; the gateway's message id keeps a resent SMS from recording the walk twice.
 */
export function createSmsFields(uses: { fields: Pick<FieldsService, 'listFor'>; walks: Pick<WalksService, 'record'> }) {
  return async function answer(
    userId: number,
    language: Language,
    command: Extract<SmsCommand, { kind: 'fields' | 'walk' | 'walkHow' }>,
    ctx: { code: string; messageId?: string },
  ): Promise<SmsReply> {
    if (command.kind === 'walkHow') return { key: 'smsIn.walkHow' };
    const rows = await uses.fields.listFor(userId);
    if (rows.length === 0)
      return { key: 'smsIn.fieldsNone', params: { code: ctx.code, menu: ussdMenuNumber('fields') } };
    if (command.kind !== 'walk')
      return { key: 'smsIn.fields', params: { list: fieldList(language, rows), first: rows[0].number } };
    const field =
      command.field === null ? (rows.length === 1 ? rows[0] : undefined) : rows.find((f) => f.number === command.field);
    if (command.field !== null && !field) return { key: 'smsIn.walkNoField', params: { number: command.field } };
    if (!field || command.looked < 1 || command.looked > WALK_MAX_PLANTS) return { key: 'smsIn.walkHow' };
    // More plants with rust than looked at is no walk: said so, never guessed the other way round.
    if (command.rust > command.looked)
      return { key: 'smsIn.walkMore', params: { rust: command.rust, looked: command.looked, field: field.number } };
    const { walk } = await uses.walks.record(userId, field.id, walkStopsOf(command), {
      channel: 'sms',
      idempotencyKey: ctx.messageId ? `sms:${ctx.messageId}` : undefined,
    });
    return {
      key: 'smsIn.walk',
      params: { ...walkAnswer(walk, { sms: true }) },
      event: `sms-walk:${walk.id}`,
    };
  };
}
