import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/adapters/outbox.ts';
import { createMailer } from '../../src/adapters/mailer.ts';
import { createSms } from '../../src/adapters/sms.ts';
import { loadConfig } from '../../src/config.ts';

const strong = {
  JWT_ACCESS_SECRET: 'k'.repeat(40),
  JWT_REFRESH_SECRET: 'r'.repeat(40),
  AT_CALLBACK_SECRET: 'c'.repeat(24),
};
const delivery = {
  SMTP_URL: 'smtps://kutu:pw@smtp.example.com:465',
  SMS_GATEWAY_URL: 'https://sms.example.com/send',
  SMS_GATEWAY_KEY: 'key',
  SMS_GATEWAY_USERNAME: 'kutu',
};
const prod = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'production', ...env });

describe('L4: secrets in production', () => {
  it('refuses the development secrets once published in the repository, in every mode', () => {
    const published = 'kutu-development-secret-change-me-in-production';
    expect(() => prod({ ...delivery, JWT_ACCESS_SECRET: published, JWT_REFRESH_SECRET: 'r'.repeat(40) })).toThrow(
      /JWT_ACCESS_SECRET: JWT_ACCESS_SECRET is a published development secret/,
    );
    expect(() => loadConfig({ JWT_REFRESH_SECRET: `${published}-refresh` })).toThrow(
      /JWT_REFRESH_SECRET: JWT_REFRESH_SECRET is a published development secret/,
    );
  });

  it('has no fixed default: unset secrets are random and left for the installation to keep', () => {
    const dev = loadConfig({}).jwt;
    expect(dev.stored).toEqual({ access: true, refresh: true });
    expect(dev.accessSecret).not.toBe(dev.refreshSecret);
    expect(dev.accessSecret.length).toBeGreaterThanOrEqual(43);
    expect(loadConfig({ JWT_ACCESS_SECRET: 'k'.repeat(40) }).jwt).toMatchObject({
      accessSecret: 'k'.repeat(40),
      stored: { access: false, refresh: true },
    });
  });

  it('refuses the same secret for access and refresh tokens', () => {
    expect(() => prod({ ...delivery, JWT_ACCESS_SECRET: 's'.repeat(40), JWT_REFRESH_SECRET: 's'.repeat(40) })).toThrow(
      /JWT_REFRESH_SECRET: JWT_REFRESH_SECRET must differ from JWT_ACCESS_SECRET/,
    );
  });

  it('refuses secrets shorter than 32 characters', () => {
    expect(() => prod({ ...delivery, ...strong, JWT_REFRESH_SECRET: 'x'.repeat(31) })).toThrow(/JWT_REFRESH_SECRET/);
    expect(prod({ ...delivery, ...strong }).jwt.refreshSecret).toBe('r'.repeat(40));
  });
});

describe('M7: no silent non-delivery in production', () => {
  it('refuses to start without SMTP and an SMS gateway, naming the settings and the opt-in', () => {
    expect(() => prod(strong)).toThrow(
      /SMTP_URL: SMTP_URL is required in production \(or MAIL_TRANSPORT=log to only log each email\)\n {2}SMS_GATEWAY_URL: SMS_GATEWAY_URL and SMS_GATEWAY_KEY are required in production \(or SMS_TRANSPORT=log/,
    );
    expect(() => prod({ ...strong, ...delivery, SMS_GATEWAY_KEY: '' })).toThrow(/SMS_GATEWAY_KEY is required/);
    // Africa's Talking refuses every send that does not name the account.
    expect(() => prod({ ...strong, ...delivery, SMS_GATEWAY_USERNAME: ' ' })).toThrow(
      /SMS_GATEWAY_USERNAME: SMS_GATEWAY_USERNAME \(the Africa's Talking account's username; sandbox on its sandbox\) is required/,
    );
    expect(() => prod({ ...strong, SMTP_URL: delivery.SMTP_URL, SMS_TRANSPORT: 'log' })).not.toThrow();
  });

  it('starts with the explicit log transports, and says so in its settings', () => {
    const config = prod({ ...strong, MAIL_TRANSPORT: 'log', SMS_TRANSPORT: 'log' });
    expect(config).toMatchObject({ mailTransport: 'log', smsTransport: 'log' });
    expect(prod({ ...strong, ...delivery })).toMatchObject({ mailTransport: 'smtp', smsTransport: 'gateway' });
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL is required with MAIL_TRANSPORT=smtp/);
  });

  it('log transports write every message, code included, to the log', async () => {
    const logged: Array<Record<string, unknown> & { msg: string }> = [];
    const log = { info: (obj: object, msg: string) => logged.push({ ...obj, msg }) };
    const outbox = new Outbox();
    await createMailer({ from: 'Kutu <no-reply@kutu.local>', outbox, log }).send({
      to: 'jane@example.com',
      subject: 'Your Kutu verification code',
      text: 'Your code is 0042',
    });
    await createSms({ senderId: 'KUTU', outbox, log }).send('+256772123456', 'Kutu: your activation code is 1234.');
    expect(logged).toEqual([
      {
        to: 'jane@example.com',
        subject: 'Your Kutu verification code',
        text: 'Your code is 0042',
        msg: 'email (log transport, not sent)',
      },
      { to: '+256772123456', text: 'Kutu: your activation code is 1234.', msg: 'sms (log transport, not sent)' },
    ]);
  });
});
