// What tests expect the server to answer and whether the services they need are there.
import { createConnection } from 'node:net';
import { isMessageKey, translate } from '@carhere/domain';
import { resolveMessage } from '../http/messages.ts';

/**
 * The message a refused bad input must carry in `lang`: the schema's 'invalid parameter' naming `field`, else the
 * domain catalogue's text for `key` when it has one, else the server's own text.
 */
export function expectedMessage(
  bad: { field?: string; key?: string; params?: Record<string, string | number> },
  lang: string,
): string {
  if (bad.field) return resolveMessage('invalidParam', lang, { field: bad.field });
  const key = bad.key as string;
  return isMessageKey(key) ? translate(key, lang, bad.params) : resolveMessage(key, lang, bad.params);
}

/** Whether a NATS server answers at `url` (nats://host:port); tests that need one skip themselves otherwise. */
export function natsReachable(url: string): Promise<boolean> {
  const [host, port] = url.replace('nats://', '').split(':');
  return new Promise((resolve) => {
    const s = createConnection({ host, port: Number(port ?? 4222) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
