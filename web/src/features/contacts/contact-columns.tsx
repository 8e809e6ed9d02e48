import type { Collection } from '../../../../shared/index.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import type { Column } from '../../ui/DataTable.tsx';
import { ContactButtons, EmailLink, PhoneLink } from './contact-links.tsx';
import { contactName, type NamedContact } from './contact-name.ts';

type ListedContact = NamedContact & { id: string; phone: string | null; email: string | null };

/**
 * The Name, Phone and Email columns a supplier's and a buyer's list share: the name with its
 * conflict mark ([T8]), links to call and write ([C1]), and on phones the row's call and
 * e-mail buttons ([B16]).
 */
export function contactColumns<Row extends ListedContact>(collection: Collection): Column<Row>[] {
  return [
    {
      header: 'Name',
      key: 'name',
      cell: (row) => (
        <>
          <span className="font-medium">{contactName(row)}</span>
          <ConflictMarker collection={collection} id={row.id} />
        </>
      ),
      sortValue: contactName,
    },
    { header: 'Phone', key: 'phone', cell: (row) => <PhoneLink phone={row.phone} />, phoneCell: (row) => row.phone ?? '' },
    {
      header: 'Email',
      key: 'email',
      cell: (row) => <EmailLink email={row.email} />,
      sortValue: (row) => row.email,
      // [B16] On phones the row's call and e-mail buttons; the number shows in line two too.
      phone: 'end',
      phoneCell: (row) => <ContactButtons phone={row.phone} email={row.email} />,
    },
  ];
}
