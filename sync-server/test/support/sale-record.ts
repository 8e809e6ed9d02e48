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

/** A payment's record as the app writes it, in cash, on 2 December 2026. */
export function paymentRecord(saleId: string, amount: string, createdAt: string) {
  return { saleId, amount, date: '2026-12-02', method: 'Cash', memo: null, installmentId: null, createdAt };
}
