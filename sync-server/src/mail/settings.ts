import { readFileSync } from 'node:fs';

/** [U17] [U18] Where invitation and password links are e-mailed from (absent: they are not e-mailed). */
export type MailSettings = {
  /** smtp://host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465. */
  url: string;
  /** The sender: `ranch@example.com` or `Sunny Acres <ranch@example.com>`. */
  from: string;
};

const ADDRESS = /^[^\s<>@]+@[^\s<>@]+$/;
const NAMED_ADDRESS = /^[^<>\r\n]*<([^\s<>@]+@[^\s<>@]+)>$/;

/**
 * RANCH_SMTP_URL (or RANCH_SMTP_URL_FILE, as it may hold a password) and RANCH_MAIL_FROM,
 * set together or not at all. Problems are added to `problems`, one line each.
 */
export function mailSettings(env: NodeJS.ProcessEnv, problems: string[]): MailSettings | undefined {
  const url = smtpUrl(env, problems);
  const from = env.RANCH_MAIL_FROM?.trim() || undefined;
  if (from && !ADDRESS.test(from) && !NAMED_ADDRESS.test(from)) {
    problems.push('  RANCH_MAIL_FROM: must be an e-mail address, or a name and one: Sunny Acres <ranch@example.com>');
    return undefined;
  }
  if (url === null) return undefined;
  if (!url !== !from) {
    problems.push('  RANCH_SMTP_URL (or RANCH_SMTP_URL_FILE) and RANCH_MAIL_FROM must be set together');
    return undefined;
  }
  return url && from ? { url, from } : undefined;
}

/** The URL, undefined when not set, null when set but unusable (the problem is added). */
function smtpUrl(env: NodeJS.ProcessEnv, problems: string[]): string | undefined | null {
  const file = env.RANCH_SMTP_URL_FILE;
  let text = env.RANCH_SMTP_URL?.trim() || undefined;
  const name = file ? 'RANCH_SMTP_URL_FILE' : 'RANCH_SMTP_URL';
  if (file) {
    if (text) {
      problems.push('  RANCH_SMTP_URL_FILE: set it or RANCH_SMTP_URL, not both');
      return null;
    }
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch (error) {
      problems.push(`  RANCH_SMTP_URL_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return null;
    }
  }
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // The value is never repeated in a message: it may hold the mail account's password.
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    problems.push(`  ${name}: must be smtp://host:587 or smtps://user:password@host:465`);
    return null;
  }
  return text;
}
