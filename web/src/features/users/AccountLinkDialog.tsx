import { useState } from 'react';
import type { AccountLink, MailOutcome } from '../../../../shared/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { listName } from './filter-users.ts';
import { QrCode } from './QrCode.tsx';

const EXPIRES = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * [U17] [U18] The link just made: to copy and send, or to show a phone as a QR code. It is
 * shown once (only its hash is kept); closing the dialog forgets it.
 */
export function AccountLinkDialog({
  link,
  onClose,
}: {
  link: { kind: 'invitation' | 'reset'; link: AccountLink } | null;
  onClose: () => void;
}) {
  return (
    <Modal open={link !== null} title={link?.kind === 'reset' ? 'Password Link' : 'Invitation Link'} onClose={onClose} size="sm">
      {link && <LinkBody kind={link.kind} link={link.link} onClose={onClose} />}
    </Modal>
  );
}

function LinkBody({ kind, link, onClose }: { kind: 'invitation' | 'reset'; link: AccountLink; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const who = listName(link.user);
  return (
    <div className="space-y-3">
      <p className="text-base-content/80">
        {kind === 'reset'
          ? `Give this link to ${who} (${link.user.email}): it sets a new password and signs them out everywhere.`
          : `Give this link to ${who} (${link.user.email}): it lets them choose their password and sign in.`}{' '}
        It works once, until {EXPIRES.format(new Date(link.expiresAt))}. It is shown only now.
      </p>
      {link.mail && <MailNotice mail={link.mail} />}
      <label className="fieldset">
        <span className="fieldset-legend pb-1">Link</span>
        <input className="input w-full font-mono text-xs" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
      </label>
      <div className="flex justify-center">
        <QrCode text={link.url} label={`QR code of the link for ${who}`} />
      </div>
      <p className="text-sm text-base-content/70">On their phone: point the camera at the code. The phone must reach this address.</p>
      <div className="modal-action">
        <button
          type="button"
          className="btn btn-outline"
          onClick={() =>
            void navigator.clipboard?.writeText(link.url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy Link'}
        </button>
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}

/** [U17] [U18] With SMTP settings on the server: whether the link went by e-mail, and if not, why. */
function MailNotice({ mail }: { mail: MailOutcome }) {
  return mail.sent ? (
    <p role="status" className="alert alert-success alert-soft">
      E-mailed to {mail.to}.
    </p>
  ) : (
    <p role="alert" className="alert alert-warning">
      The e-mail to {mail.to} was not sent: {mail.error} The link and the QR code below still work: give them yourself.
    </p>
  );
}
