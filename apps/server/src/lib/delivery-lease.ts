/**
 * How long a delivery worker's claim on outbox rows must hold (docs/decisions/0070-lease-covers-the-send.md).
 * A send starts only in the first half of its claim's lease (`delivery.sender.ts`), and the longest send is
 * every part of the longest SMS waiting the gateway's whole timeout, then a moment to record its end. A
 * lease at least twice that ends after any send it let start: no other worker takes a row still in flight.
 */

/** The most messages one SMS may be split into (`i18n/sms-texts.ts` holds every key to it). */
export const MAX_SMS_PARTS = 5;

/** Time to record a part and the send's end, on top of the gateway's answers. */
export const RECORD_MARGIN_MS = 1_000;

/** The longest one outbox row's send may take when each part waits the gateway's full timeout. */
export const longestSendMs = (gatewayTimeoutMs: number) => MAX_SMS_PARTS * gatewayTimeoutMs + RECORD_MARGIN_MS;

/** The shortest lease under which a send started in the lease's first half ends inside it, in whole seconds. */
export const shortestLeaseSeconds = (gatewayTimeoutMs: number) =>
  Math.ceil((2 * longestSendMs(gatewayTimeoutMs)) / 1000);
