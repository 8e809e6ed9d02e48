import { restClient, sessionCookie } from './session.ts';
import { ADMIN, type AppServer } from './app-server.ts';

export type RanchSeed = {
  api: ReturnType<typeof restClient>;
  horses: Record<string, string>;
  supplierId: string;
  buyerId: string;
  saleId: string;
  breedId: string;
  /** Dusty's farrier visit. */
  careEntryId: string;
  /** When the server recorded the sale (its clock, not the seed's): the Sales list shows it. */
  saleCreatedAt: string;
  /** Stella Hand's account (Staff, stella@ranch.test). */
  staffId: string;
};

/**
 * A small ranch with fixed names, made through REST as the Admin: a few lookups, a supplier,
 * two buyers, three horses (one sold, with a payment), a care visit and a Staff user, so
 * every screen has a row or two to show. `today` is the date care and payments are dated
 * from (YYYY-MM-DD).
 */
export async function seedRanch(server: AppServer, today: string): Promise<RanchSeed> {
  const api = restClient(server, await sessionCookie(server, ADMIN));
  const create = async (path: string, body: object) => (await api<{ id: string }>(path, { method: 'POST', body: JSON.stringify(body) })).id;
  const breedId = await create('/api/breeds', { name: 'Quarter Horse' });
  const colorId = await create('/api/colors', { name: 'Bay' });
  const genderId = await create('/api/genders', { name: 'Mare' });
  const statuses: Record<string, string> = {};
  for (const name of ['Available', 'In Training']) statuses[name] = await create('/api/statuses', { name });
  const supplierId = await create('/api/owners', { firstName: 'Sam', lastName: 'Stone', phone: '555-0100', email: 'sam@stone.test' });
  const buyerId = await create('/api/buyers', { firstName: 'Bo', lastName: 'Hart', phone: '555-0199', email: 'bo@hart.test' });
  await create('/api/buyers', { firstName: 'Ada', lastName: 'Lane' });
  const horses: Record<string, string> = {};
  for (const [name, status, priceUsd] of [
    ['Comet', 'Available', '12000'],
    ['Dusty', 'In Training', '8500'],
    ['Star', 'Available', '9900'],
  ] as const) {
    horses[name] = await create('/api/horses', {
      name,
      breedId,
      colorId,
      genderId,
      statusId: statuses[status],
      ownerId: supplierId,
      priceUsd,
    });
  }
  const sale = await api<{ id: string; createdAt: string }>('/api/sales', {
    method: 'POST',
    body: JSON.stringify({
      horseId: horses.Comet,
      buyerId,
      salePrice: '12000',
      downPayment: '3000',
      termsMonths: 6,
      scheduleStartDate: today,
    }),
  });
  const saleId = sale.id;
  await create('/api/payments', { saleId, amount: '1500', date: today, method: 'Check', memo: 'First installment' });
  const [care] = await api<{ id: string }[]>('/api/careEntries', {
    method: 'POST',
    body: JSON.stringify({ horseIds: [horses.Dusty], kind: 'farrier', doneOn: today, nextDueOn: null }),
  });
  const staffId = await create('/api/users', {
    email: 'stella@ranch.test',
    password: 'stable password',
    firstName: 'Stella',
    lastName: 'Hand',
    role: 'Staff',
  });
  return { api, horses, supplierId, buyerId, saleId, breedId, careEntryId: care!.id, saleCreatedAt: sale.createdAt, staffId };
}
