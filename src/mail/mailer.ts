// Outgoing email: SMTP through nodemailer when SMTP_URL is set. In development without SMTP the
// message is written to DATA_DIR/outbox as an .eml file instead, and its path and link logged.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Stable id, so a retried send is recognisable as the same message. */
  messageId?: string;
  headers?: Record<string, string>;
  /**
   * The link the message asks its reader to follow (an invitation's accept link). Logged only
   * when the message goes to the dev outbox, never when it is sent through SMTP.
   */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string; outboxFile?: string }>;
  close(): void;
}

export function createMailer(options: { smtpUrl?: string | undefined; from: string; outboxDir: string; logger: Logger }): Mailer {
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.messageId ? { messageId: message.messageId } : {}),
        ...(message.headers ? { headers: message.headers } : {}),
      });
      if (options.smtpUrl) return { messageId: info.messageId };
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '_')}.eml`);
      await fs.writeFile(file, (info as unknown as { message: Buffer }).message);
      // Without SMTP the outbox and this log line are the delivery channel in development: the
      // developer follows the link from the terminal. Only this mode logs it; with SMTP_URL set
      // the message leaves through the relay and no link or token ever reaches the logs.
      options.logger.info(
        { file, subject: message.subject, ...(message.link ? { link: message.link } : {}) },
        'SMTP_URL not set: email written to the outbox',
      );
      return { messageId: info.messageId, outboxFile: file };
    },
    close() {
      transport.close();
    },
  };
}
