/** The settings that choose how mail and SMS leave (config.ts's parsed environment). */
interface TransportSettings {
  NODE_ENV: 'development' | 'production' | 'test';
  SMTP_URL?: string;
  MAIL_TRANSPORT?: 'smtp' | 'log';
  SMS_GATEWAY_URL?: string;
  SMS_TRANSPORT?: 'gateway' | 'log';
}

/**
 * How mail and SMS leave, and whether the development outbox may show them. `log` only logs each
 * message: chosen explicitly, or the default without SMTP_URL / SMS_GATEWAY_URL. `devOutboxOff` says why
 * GET /api/dev/outbox/ (the codes and links sent lately) is not served, or is null when it is: only
 * outside production with both transports only logging, since with a real one the codes reach real
 * people (docs/decisions/0125).
 */
export function transports(e: TransportSettings) {
  const mailTransport: 'smtp' | 'log' = e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : 'log');
  const smsTransport: 'gateway' | 'log' = e.SMS_TRANSPORT ?? (e.SMS_GATEWAY_URL ? 'gateway' : 'log');
  const devOutboxOff =
    e.NODE_ENV === 'production'
      ? 'NODE_ENV is production'
      : mailTransport === 'smtp'
        ? 'a mail server is configured (SMTP_URL)'
        : smsTransport === 'gateway'
          ? 'an SMS gateway is configured (SMS_GATEWAY_URL)'
          : null;
  return { mailTransport, smsTransport, devOutboxOff };
}
