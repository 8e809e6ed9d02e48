/** What a sale's record names and says in every ledger test: its horse, buyer, price and time. */
type SaleFields = { horseId: string; buyerId: string; salePrice: string; createdAt: string } & Record<string, unknown>;

/** A sale's record as the app writes it: no down payment, 3 months, no interest or schedule; `fields` may change those too. */
export function saleRecord(fields: SaleFields) {
  return {
    downPayment: '0',
    termsMonths: 3,
    interestApr: null,
    scheduleStartDate: null,
    previousStatusId: null,
    ...fields,
  };
}
