import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { access, constants, mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type EarshotConfig, parseSecretsKey } from './config.ts';
import { insertedOrExisting, type Queryable } from './database.ts';

/**
 * Seals the secrets Earshot must read back in clear (a webhook channel's
 * signing secret, a Slack bot token, the deployment's shared HMAC keys) so
 * that a copy of the database alone reveals none of them. AES-256-GCM with
 * a random 96-bit nonce per value; the value's owner (table, column, row)
 * is the associated data, so a sealed value moved to another row, column or
 * workspace no longer opens. Stored as `v1.` + base64url(nonce ‖ ciphertext
 * ‖ tag): the `v1` names the key, so a later key can be added beside it and
 * old values resealed at leisure.
 */
export interface SecretBox {
  seal(plaintext: string, owner: string): string;
  /** The plaintext, or `SealedSecretError` when the value was sealed under another key or for another owner, or was altered. */
  open(sealed: string, owner: string): string;
}

/** A value stored as it was before sealing (migration 045's check constraints refuse new ones). */
export const isSealed = (value: string): boolean => /^v[0-9]+\./.test(value);

export class SealedSecretError extends Error {}

const keyVersion = 'v1';
const nonceBytes = 12;
const tagBytes = 16;

/** The box of one key; `keySource` says where the key came from, for the error a wrong key gives. */
export function secretBox(key: Buffer, keySource: string): SecretBox {
  if (key.length !== 32) throw new Error(`The secrets key must be 32 bytes, got ${key.length}`);
  return {
    seal(plaintext, owner) {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(owner, 'utf8'));
      const sealed = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${keyVersion}.${sealed.toString('base64url')}`;
    },
    open(sealed, owner) {
      const [, version, text] = /^(v[0-9]+)\.(.*)$/s.exec(sealed) ?? [];
      if (!version) throw new SealedSecretError(`${owner} is not sealed`);
      if (version !== keyVersion) throw new SealedSecretError(`${owner} is sealed with key ${version}, which this process does not have`);
      const bytes = Buffer.from(text, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, nonceBytes)).setAAD(Buffer.from(owner, 'utf8'));
        decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
        return Buffer.concat([decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError(
          `${owner} does not open with the secrets key of this process (${keySource}): it was sealed with another key, or belongs to another row. ` +
            'Every process of a deployment needs the same EARSHOT_SECRETS_KEY (or the same key file).',
        );
      }
    },
  };
}

/** Where a process's own key lives when `EARSHOT_SECRETS_KEY` is unset: beside the embedded database, never inside it. */
export const secretsKeyFile = (dataDir: string): string => path.resolve(dataDir, 'secrets.key');

/**
 * The deployment's secrets key: `EARSHOT_SECRETS_KEY` when set (checked by
 * the config), else a key file. The first process names its own file in
 * the database (the path, never the key), and every later process that can
 * read that file uses it whatever its `EARSHOT_DATA_DIR`: a `--role`
 * process on `DATABASE_URL` beside an `npm start` with a data dir of its
 * own shares its key with nothing to set. A process that cannot read it (on
 * another machine) uses its own file, which the key check then refuses,
 * asking for `EARSHOT_SECRETS_KEY`.
 */
export async function loadSecretBox(config: Pick<EarshotConfig, 'secretsKey' | 'dataDir'>, sql: Queryable): Promise<SecretBox> {
  if (config.secretsKey) return secretBox(config.secretsKey, 'EARSHOT_SECRETS_KEY');
  const own = secretsKeyFile(config.dataDir);
  const { path: named } = await insertedOrExisting(() => sql<{ path: string }[]>`
    /* nameSecretsKeyFile */
    with named as (insert into secrets_key_file (path) values (${own}) on conflict do nothing returning path)
    select path from named
    union all
    select path from secrets_key_file
    limit 1`);
  const file = named !== own && (await readable(named)) ? named : own;
  if (file === own) await createKeyFile(config.dataDir, file);
  return keyFileBox(file);
}

const readable = (file: string): Promise<boolean> =>
  access(file, constants.R_OK).then(
    () => true,
    () => false,
  );

/** Creates the key file with mode 0600 unless it exists. Two processes creating it at once agree: only one exclusive create succeeds. */
async function createKeyFile(dataDir: string, file: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(`${randomBytes(32).toString('base64')}\n`);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

async function keyFileBox(file: string): Promise<SecretBox> {
  let text = await readFile(file, 'utf8');
  // The exclusive create of another process may not have written yet.
  for (let waited = 0; text === '' && waited < 20; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    text = await readFile(file, 'utf8');
  }
  return secretBox(parseSecretsKey(text.trim(), `The secrets key file ${file}`), `the key file ${file}`);
}
