/** [C1]: a telephone link, or N/A. */
export function PhoneLink({ phone }: { phone: string | null }) {
  if (!phone) return <span className="text-base-content/60">N/A</span>;
  return (
    <a className="link link-hover" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
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
