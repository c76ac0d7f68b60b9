import nodemailer from 'nodemailer';
import type { Outbox } from './outbox.ts';

/** A file an email carries. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}
export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * SMTP when a URL is given; otherwise the log transport, which writes every message to the log (and the
 * development outbox). Production runs it only when MAIL_TRANSPORT=log says so (see config.ts).
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outbox?: Outbox; log?: Logger }): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(mail) {
      await transport.sendMail({ from: opts.from, ...mail });
      opts.outbox?.add({ channel: 'email', to: mail.to, subject: mail.subject, text: mail.text });
      if (!opts.smtpUrl)
        opts.log?.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'email (log transport, not sent)');
    },
  };
}
