import { MailIcon, PhoneIcon } from '../../ui/icons.tsx';

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** [C1]: a telephone link, or N/A. */
export function PhoneLink({ phone }: { phone: string | null }) {
  if (!phone) return <span className="text-base-content/60">N/A</span>;
  return (
    <a className="link link-hover" href={telHref(phone)}>
      {phone}
    </a>
  );
}

/** [C1]: a mail link, or N/A. */
export function EmailLink({ email }: { email: string | null }) {
  if (!email) return <span className="text-base-content/60">N/A</span>;
  return (
    <a className="link link-hover break-all" href={`mailto:${email}`}>
      {email}
    </a>
  );
}

/**
 * [C1], [B16] A compact row's call and e-mail buttons: one tap rings the number or writes the
 * mail, each 44 px square; a contact without one has no button for it.
 */
export function ContactButtons({ phone, email }: { phone: string | null; email: string | null }) {
  return (
    <>
      {phone && (
        <a className="btn btn-ghost btn-square text-primary" href={telHref(phone)} aria-label={`Call ${phone}`}>
          <PhoneIcon className="size-5" />
        </a>
      )}
      {email && (
        <a className="btn btn-ghost btn-square text-primary" href={`mailto:${email}`} aria-label={`E-mail ${email}`}>
          <MailIcon className="size-5" />
        </a>
      )}
    </>
  );
}
