import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

/**
 * A real SMTP server on a free loopback port (the `smtp-server` package):
 * it requires AUTH with its own credentials, can refuse a recipient with a
 * chosen reply (550 unknown mailbox, 450 try later), and parses every message
 * it accepts (headers, encoded-word subjects, multipart/alternative bodies in
 * quoted-printable or base64) into what a reader would see.
 */
export interface FakeSmtp {
  /** The value for `EARSHOT_SMTP_URL`. */
  url: string;
  user: string;
  pass: string;
  messages: ReceivedMail[];
  /** How many SMTP connections clients opened so far. */
  readonly connections: number;
  /** Refuse `RCPT TO` for `address` with `code` (550 by default) from now on, or only the next `times` times. */
  refuseRecipient(address: string, code?: number, times?: number): void;
  close(): Promise<void>;
}

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Header fields by lower-case name, unfolded and with encoded words decoded. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  text: string | null;
  html: string | null;
  raw: string;
}

function decodeBytes(body: string, transferEncoding: string): Buffer {
  switch (transferEncoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable': {
      const joined = body.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < joined.length; i++) {
        if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
          bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
          i += 2;
        } else {
          bytes.push(...Buffer.from(joined[i], 'utf8'));
        }
      }
      return Buffer.from(bytes);
    }
    default:
      return Buffer.from(body, 'utf8');
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), with the white space between two of them dropped. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? decodeBytes(text, 'base64').toString('utf8') : decodeBytes(text.replace(/_/g, ' '), 'quoted-printable').toString('utf8'),
    );
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The text/plain and text/html parts of a message, however deep in multipart/* they sit. */
function textParts(entity: { headers: Record<string, string>; body: string }, found: { text: string | null; html: string | null }) {
  const contentType = entity.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = entity.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      textParts(splitEntity(section.replace(/^\r?\n/, '')), found);
    }
    return;
  }
  const decoded = decodeBytes(entity.body, entity.headers['content-transfer-encoding'] ?? '7bit').toString('utf8').replace(/\r\n/g, '\n').replace(/\n$/, '');
  if (/^text\/html/i.test(contentType)) found.html ??= decoded;
  else if (/^text\/plain/i.test(contentType)) found.text ??= decoded;
}

export function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const entity = splitEntity(raw);
  const found = { text: null as string | null, html: null as string | null };
  textParts(entity, found);
  return {
    envelope,
    headers: entity.headers,
    from: entity.headers.from ?? '',
    to: entity.headers.to ?? '',
    subject: entity.headers.subject ?? '',
    messageId: entity.headers['message-id'] ?? '',
    ...found,
    raw,
  };
}

/** `startTls` offers STARTTLS with smtp-server's built-in self-signed certificate, as that server does unless told not to. */
export async function startFakeSmtp(options: { startTls?: boolean } = {}): Promise<FakeSmtp> {
  const user = 'earshot';
  const pass = randomBytes(9).toString('base64url');
  const messages: ReceivedMail[] = [];
  const refused = new Map<string, { code: number; left: number }>();
  let connections = 0;

  const server = new SMTPServer({
    // Loopback only, so no TLS unless asked: nodemailer sends AUTH in clear when the server offers no STARTTLS.
    disabledCommands: options.startTls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user });
      const error: SMTPServerError = new Error('Authentication credentials invalid');
      error.responseCode = 535;
      callback(error);
    },
    onRcptTo(address, _session, callback) {
      const refusal = refused.get(address.address.toLowerCase());
      if (!refusal || refusal.left <= 0) return callback();
      refusal.left--;
      const { code } = refusal;
      const error: SMTPServerError = new Error(code >= 500 ? `<${address.address}>: Recipient address rejected: User unknown` : 'Try again later');
      error.responseCode = code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
        };
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    user,
    pass,
    messages,
    get connections() {
      return connections;
    },
    refuseRecipient(address, code = 550, times = Infinity) {
      refused.set(address.toLowerCase(), { code, left: times });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
