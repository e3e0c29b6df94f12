import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntegrationError } from '../subgraphs/team/integration-error.ts';
import {
  type Mailer,
  closeSharedMailers,
  createMailer,
  emailConfirmationLink,
  hashConfirmationToken,
  mailSettings,
  newConfirmationToken,
  requireMailSettings,
  sharedMailer,
} from '../subgraphs/team/mailer.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';

let smtp: FakeSmtp;
let mailer: Mailer;

beforeEach(async () => {
  smtp = await startFakeSmtp();
  mailer = createMailer(mailSettings({ EARSHOT_SMTP_URL: smtp.url, EARSHOT_MAIL_FROM: 'Earshot Alerts <alerts@earshot.example>' })!, { timeoutMs: 2000 });
});
afterEach(async () => {
  mailer.close();
  await smtp.close();
});

describe('mail settings', () => {
  it('need EARSHOT_SMTP_URL; the From has a default', () => {
    expect(mailSettings({ EARSHOT_SMTP_URL: 'smtp://u:p@mail.example:587' })).toEqual({ smtpUrl: 'smtp://u:p@mail.example:587', from: 'Earshot <earshot@localhost>' });
    expect(mailSettings({ EARSHOT_MAIL_FROM: 'x@y.z' })).toBeNull();
    expect(() => requireMailSettings({})).toThrow(expect.objectContaining({ extensions: { code: 'email_not_configured' } }));
  });
});

describe('sendMail over SMTP', () => {
  it('delivers text and HTML from EARSHOT_MAIL_FROM, authenticated, and answers the Message-ID', async () => {
    const sent = await mailer.sendMail({
      to: 'ops@customer.example',
      subject: 'Négatif: “earshot” on Hacker News',
      text: 'Someone said:\n> Earshot is slow & noisy 😕\nOpen: https://news.example/item?id=1',
      html: '<p>Someone said:</p><blockquote>Earshot is slow &amp; noisy 😕</blockquote>',
    });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(sent.messageId).toBe(mail.messageId);
    expect(mail).toMatchObject({
      envelope: { from: 'alerts@earshot.example', to: ['ops@customer.example'] },
      from: 'Earshot Alerts <alerts@earshot.example>',
      to: 'ops@customer.example',
      subject: 'Négatif: “earshot” on Hacker News',
      text: 'Someone said:\n> Earshot is slow & noisy 😕\nOpen: https://news.example/item?id=1',
      html: '<p>Someone said:</p><blockquote>Earshot is slow &amp; noisy 😕</blockquote>',
    });
    expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
  });

  it('reuses one SMTP connection for message after message, and shares it through sharedMailer', async () => {
    for (let i = 0; i < 3; i++) await mailer.sendMail({ to: `reader${i}@customer.example`, subject: `Message ${i}`, text: 't', html: '<p>t</p>' });
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Message 0', 'Message 1', 'Message 2']);
    expect(smtp.connections).toBe(1);

    const settings = mailSettings({ EARSHOT_SMTP_URL: smtp.url })!;
    expect(sharedMailer(settings)).toBe(sharedMailer({ ...settings }));
    await sharedMailer(settings).sendMail({ to: 'a@customer.example', subject: 'Shared 1', text: 't', html: 't' });
    await sharedMailer(settings).sendMail({ to: 'b@customer.example', subject: 'Shared 2', text: 't', html: 't' });
    expect(smtp.connections).toBe(2);
    // Closed as the process stops; a send after that opens a new pool.
    const closed = sharedMailer(settings);
    await closeSharedMailers();
    expect(sharedMailer(settings)).not.toBe(closed);
    await closeSharedMailers();
  });

  // Every message failed with "certificate has expired" when the server offered STARTTLS with smtp-server's built-in certificate.
  it('upgrades an smtp:// connection to STARTTLS without checking the certificate, and checks it with requireTLS=true', async () => {
    const withTls = await startFakeSmtp({ startTls: true });
    const opportunistic = createMailer({ smtpUrl: withTls.url, from: 'e@x.y' }, { timeoutMs: 2000 });
    const required = createMailer({ smtpUrl: `${withTls.url}?requireTLS=true`, from: 'e@x.y' }, { timeoutMs: 2000 });
    try {
      await opportunistic.sendMail({ to: 'ops@customer.example', subject: 'Over TLS', text: 't', html: '<p>t</p>' });
      expect(withTls.messages.map((mail) => mail.subject)).toEqual(['Over TLS']);
      await expect(required.sendMail({ to: 'ops@customer.example', subject: 'Checked', text: 't', html: '<p>t</p>' })).rejects.toThrow(/certificate/);
      expect(withTls.messages).toHaveLength(1);
    } finally {
      opportunistic.close();
      required.close();
      await withTls.close();
    }
  });

  it('fails permanently when the server refuses the mailbox with 550', async () => {
    smtp.refuseRecipient('gone@customer.example');
    const failure = await mailer.sendMail({ to: 'gone@customer.example', subject: 's', text: 't', html: '<p>t</p>' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IntegrationError);
    expect(failure).toMatchObject({ platform: 'email', code: '550', transient: false });
    expect((failure as Error).message).toContain('User unknown');
    expect(smtp.messages).toEqual([]);
  });

  it('fails transiently on a 4xx refusal', async () => {
    smtp.refuseRecipient('busy@customer.example', 450);
    await expect(mailer.sendMail({ to: 'busy@customer.example', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toMatchObject({
      code: '450',
      transient: true,
    });
  });

  it('fails permanently on wrong credentials (535), transiently when the server is down', async () => {
    const wrongPassword = createMailer({ smtpUrl: smtp.url.replace(smtp.pass, 'wrong'), from: 'e@x.y' }, { timeoutMs: 2000 });
    await expect(wrongPassword.sendMail({ to: 'a@b.c', subject: 's', text: 't', html: 't' })).rejects.toMatchObject({ code: '535', transient: false });
    wrongPassword.close();

    const url = smtp.url;
    await smtp.close();
    const down = createMailer({ smtpUrl: url, from: 'e@x.y' }, { timeoutMs: 2000 });
    const failure = await down.sendMail({ to: 'a@b.c', subject: 's', text: 't', html: 't' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ platform: 'email', transient: true });
    expect((failure as IntegrationError).code).toMatch(/^E(SOCKET|CONNECTION)$/);
    down.close();
    smtp = await startFakeSmtp();
  });
});

describe('double opt-in pieces', () => {
  it('makes a random URL-safe token whose SHA-256 hash is what gets stored', () => {
    const first = newConfirmationToken();
    const second = newConfirmationToken();
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.token).not.toBe(second.token);
    expect(first.hash).toBe(createHash('sha256').update(first.token).digest('hex'));
    expect(hashConfirmationToken(first.token)).toBe(first.hash);
    expect(hashConfirmationToken(second.token)).not.toBe(first.hash);
  });

  it('links to the public confirmation route', () => {
    expect(emailConfirmationLink({ EARSHOT_PUBLIC_URL: 'https://app.example/' }, 'a-b_c')).toBe('https://app.example/v1/channels/email/confirm?token=a-b_c');
    expect(emailConfirmationLink({ PORT: '4100' }, 'x')).toBe('http://localhost:4100/v1/channels/email/confirm?token=x');
  });
});
