// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { localToday } from '../../lib/local-today.ts';
import { CACHED_RANCH_KEY, forgetRanchDetails } from '../ranch/ranch-details.ts';
import { SalesScreen } from './SalesScreen.tsx';

let data: RanchData;

beforeEach(async () => {
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await data.persistence.clearData();
  await data.destroy();
});

function seed() {
  const refs = {
    breedId: data.lookups.create('breeds', { name: 'Arabian' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
  const statusId = data.lookups.create('statuses', { name: 'For Sale' });
  const star = data.horses.create({ name: 'Star', ...refs, statusId, priceUsd: '12000' });
  data.horses.create({ name: 'No Status Nell', ...refs, priceUsd: '5000' });
  const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Buyer' });
  return { star, buyerId, statusId, refs };
}

const choose = (scope: HTMLElement, label: RegExp, option: string) => {
  const select = within(scope).getByLabelText(label);
  fireEvent.change(select, { target: { value: within(select).getByRole('option', { name: option }).getAttribute('value') } });
};

/** Types into a picker ([S4]) and taps the choice it lists. */
async function pick(scope: HTMLElement, label: RegExp, typed: string, option: string) {
  const input = within(scope).getByLabelText(label);
  fireEvent.change(input, { target: { value: typed } });
  fireEvent.click(await within(scope).findByRole('option', { name: option }));
}

/** The names a picker lists once its list is opened. */
function listed(scope: HTMLElement, label: RegExp): string[] {
  const input = within(scope).getByLabelText(label);
  if (input.getAttribute('aria-expanded') !== 'true') fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '')!;
  return within(list)
    .queryAllByRole('option')
    .map((option) => option.textContent ?? '');
}

async function openDialog(button: string, title: string) {
  fireEvent.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: title });
}

describe('Sales & Payments screen', () => {
  it('[S1] [S2] [P1] shows title, buttons, tabs and the empty texts', async () => {
    renderScreen(<SalesScreen />, { data });
    expect(await screen.findByRole('heading', { name: 'Sales & Payments' })).toBeTruthy();
    expect(screen.getByText('Manage sales transactions and payment schedules')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Record Payment' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Sale' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Sales' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('No sales found')).toBeTruthy();
    for (const header of ['Horse', 'Buyer', 'Sale Price', 'Down Payment', 'Terms', 'Status', 'Created']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('tab', { name: 'Payments' }));
    expect(await screen.findByText('No payments found')).toBeTruthy();
    for (const header of ['Sale', 'Amount', 'Method', 'Date', 'Memo'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
  });

  it('[S3] the empty sale form shows the required-field messages and creates nothing', async () => {
    renderScreen(<SalesScreen />, { data });
    const dialog = await openDialog('Create Sale', 'Create New Sale');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Create Sale' }));
    for (const message of ['Horse is required', 'Buyer is required', 'Sale price is required', 'Payment terms are required']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    // The first field to mend takes the focus, picker or not.
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Horse/));
    expect(await data.db.sales.count()).toBe(0);
  });

  it('[S4] [S5] offers only horses with a status, pre-fills the price and creates the sale', async () => {
    seed();
    renderScreen(<SalesScreen />, { data });
    const dialog = await openDialog('Create Sale', 'Create New Sale');
    await within(dialog).findByLabelText(/^Horse/);
    await waitFor(() => expect(listed(dialog, /^Horse/)).toEqual(['Star']));
    expect(
      within(within(dialog).getByLabelText(/^Payment Terms/))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select payment terms', 'Paid in Full', '3 months', '6 months', '12 months']);
    expect((within(dialog).getByLabelText(/^Interest APR/) as HTMLInputElement).step).toBe('0.01');
    expect((within(dialog).getByLabelText(/^Down Payment/) as HTMLInputElement).value).toBe('$0');

    await pick(dialog, /^Horse/, 'sta', 'Star');
    expect((within(dialog).getByLabelText(/^Horse/) as HTMLInputElement).value).toBe('Star');
    expect((within(dialog).getByLabelText(/^Sale Price/) as HTMLInputElement).value).toBe('$12,000');
    const details = within(dialog).getByRole('region', { name: 'Selected Horse Details' });
    expect(within(details).getByText('Star')).toBeTruthy();
    expect(within(details).getByText('$12,000')).toBeTruthy();
    await pick(dialog, /^Buyer/, 'bo', 'Bo Buyer');
    choose(dialog, /^Payment Terms/, '3 months');
    fireEvent.change(within(dialog).getByLabelText(/^Down Payment/), { target: { value: '3000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Sale' }));

    expect(await screen.findByText('Sale created successfully')).toBeTruthy();
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(0, 6)
        .map((cell) => cell.textContent),
    ).toEqual(['Star', 'Bo Buyer', '$12,000', '$3,000', '3 months', 'Open']);
    // A sold horse is not offered again.
    const again = await openDialog('Create Sale', 'Create New Sale');
    await within(again).findByLabelText(/^Horse/);
    await waitFor(() => expect(listed(again, /^Horse/)).toEqual([]));
  });

  it("[S15] 'Paid in Full' takes the whole price as the down payment: the sale is Paid at once", async () => {
    seed();
    renderScreen(<SalesScreen />, { data });
    const dialog = await openDialog('Create Sale', 'Create New Sale');
    await within(dialog).findByLabelText(/^Horse/);
    await pick(dialog, /^Horse/, 'sta', 'Star');
    await pick(dialog, /^Buyer/, 'bo', 'Bo Buyer');
    choose(dialog, /^Payment Terms/, 'Paid in Full');
    const down = within(dialog).getByLabelText(/^Down Payment/) as HTMLInputElement;
    await waitFor(() => expect(down.value).toBe('$12,000'));
    expect(down.readOnly).toBe(true);
    expect(within(dialog).getByText('Paid in Full: the whole price is received at the sale')).toBeTruthy();
    // The down payment follows the price as it is typed.
    const price = within(dialog).getByLabelText(/^Sale Price/);
    fireEvent.change(price, { target: { value: '11500' } });
    await waitFor(() => expect(down.value).toBe('11500'));
    fireEvent.blur(price);
    await waitFor(() => expect(down.value).toBe('$11,500'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Sale' }));
    expect(await screen.findByText('Sale created successfully')).toBeTruthy();
    const [sale] = await data.db.sales.toArray();
    expect(sale).toMatchObject({ salePrice: '11500.00', downPayment: '11500.00', termsMonths: 0 });
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Paid')).toBeTruthy());
    expect(within(row).queryByRole('button', { name: 'Add Payment' })).toBeNull();
  });

  it('[S7] [P4] [S12] records payments until the sale is Paid; Add Payment pre-fills and disappears', async () => {
    const { star, buyerId } = seed();
    await data.writes.sales.create({ horseId: star, buyerId, salePrice: '1000', downPayment: '400', termsMonths: 3 });
    renderScreen(<SalesScreen />, { data });
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;

    let dialog = await openDialog('Record Payment', 'Record Payment');
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    for (const message of ['Sale is required', 'Amount is required', 'Date is required', 'Payment method is required']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Sale/));
    // The date was cleared: Cancel asks before the change is thrown away ([B15]).
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));

    fireEvent.click(within(row).getByRole('button', { name: 'Add Payment' }));
    dialog = await screen.findByRole('dialog', { name: 'Record Payment' });
    expect((within(dialog).getByLabelText(/^Sale/) as HTMLInputElement).value).toBe('Star — Bo Buyer (balance $600)');
    expect(listed(dialog, /^Sale/)).toEqual(['Star — Bo Buyer (balance $600)']);
    expect((within(dialog).getByLabelText(/^Date/) as HTMLInputElement).value).toBe(localToday());
    expect(
      within(within(dialog).getByLabelText(/^Payment Method/))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select payment method', 'Cash', 'Credit/Debit Card', 'ACH Transfer', 'Check', 'Other']);
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '600' } });
    choose(dialog, /^Payment Method/, 'ACH Transfer');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    expect(await screen.findByText('Payment recorded successfully')).toBeTruthy();

    await waitFor(() => expect(within(row).getByText('Paid').className).toContain('font-semibold'));
    expect(within(row).queryByRole('button', { name: 'Add Payment' })).toBeNull();
    // A paid sale is no longer offered in the payment form.
    dialog = await openDialog('Record Payment', 'Record Payment');
    expect(listed(dialog, /^Sale/)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('tab', { name: 'Payments' }));
    const payment = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    expect(
      within(payment)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((cell) => cell.textContent),
    ).toEqual(['Star', '$600', 'ACH Transfer', new Date(`${localToday()}T12:00:00`).toLocaleDateString(), '—']);
  });

  it('[P13] a sale from the ledger with flags says in its details what it broke', async () => {
    const { star, buyerId } = seed();
    const record = { horseId: star, buyerId, salePrice: '900.00', downPayment: '0.00', termsMonths: 3, interestApr: null };
    await data.db.sales.put({
      id: '0190c000-0000-7000-8000-000000000001',
      ...record,
      scheduleStartDate: null,
      previousStatusId: null,
      createdAt: '2026-12-01T10:00:00.000Z',
      ledgerSeq: 4,
      flags: ['horseAlreadySold', 'buyerDeleted'],
    });
    renderScreen(<SalesScreen />, { data });
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sale Details' });
    const notes = within(dialog).getByRole('region', { name: 'Notes' });
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['The horse was already sold: both sales are kept', 'The buyer was deleted meanwhile']);
  });

  it('[S12] [S9] View Details shows the schedule, paid so far and balance', async () => {
    const { star, buyerId } = seed();
    const saleId = await data.writes.sales.create({
      horseId: star,
      buyerId,
      salePrice: '12000',
      downPayment: '0',
      termsMonths: 3,
      scheduleStartDate: '2099-01-31',
    });
    await data.writes.payments.create({ saleId, amount: '4000', date: '2026-02-01', method: 'Check' });
    renderScreen(<SalesScreen />, { data });
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Open')).toBeTruthy());
    fireEvent.click(within(row).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sale Details' });
    expect(within(dialog).getByTestId('paid-so-far').textContent).toBe('$4,000');
    expect(within(dialog).getByTestId('balance').textContent).toBe('$8,000');
    const schedule = within(dialog).getByRole('table', { name: 'Installment Schedule' });
    const rows = within(schedule)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['1', '$4,000', 'Yes'],
      ['2', '$4,000', 'No'],
      ['3', '$4,000', 'No'],
    ]);
    expect(rows[1]?.[1]).toBe(new Date('2099-02-28T12:00:00').toLocaleDateString());
  });

  it('[S16] a sale with an installment past due shows Past due; its schedule marks the late rows', async () => {
    const { star, buyerId, refs, statusId } = seed();
    const late = await data.writes.sales.create({
      horseId: star,
      buyerId,
      salePrice: '3000',
      termsMonths: 3,
      scheduleStartDate: '2020-01-31',
    });
    await data.writes.payments.create({ saleId: late, amount: '1000', date: '2020-02-01', method: 'Check' });
    const comet = data.horses.create({ name: 'Comet', ...refs, statusId, priceUsd: '900' });
    await data.writes.sales.create({ horseId: comet, buyerId, salePrice: '900', termsMonths: 3, scheduleStartDate: '2099-01-01' });
    const dusty = data.horses.create({ name: 'Dusty', ...refs, statusId, priceUsd: '500' });
    await data.writes.sales.create({ horseId: dusty, buyerId, salePrice: '500', downPayment: '500', termsMonths: 0 });
    renderScreen(<SalesScreen />, { data });
    const statusOf = async (horse: string) => {
      const row = (await screen.findByRole('cell', { name: horse })).closest('tr')!;
      return within(row).getAllByRole('cell')[5]!.textContent;
    };
    await waitFor(async () => expect(await statusOf('Star')).toBe('Past due'));
    expect([await statusOf('Comet'), await statusOf('Dusty')]).toEqual(['Open', 'Paid']);
    const star_ = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    expect(within(star_).getByText('Past due').className).toContain('badge-error');
    // A late sale still takes payments.
    expect(within(star_).getByRole('button', { name: 'Add Payment' })).toBeTruthy();

    fireEvent.click(within(star_).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sale Details' });
    expect(within(dialog).getByTestId('past-due').textContent).toBe('$2,000');
    const schedule = within(dialog).getByRole('table', { name: 'Installment Schedule' });
    const rows = within(schedule).getAllByRole('row').slice(1);
    const days = (due: string) => Math.round((Date.parse(`${localToday()}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);
    expect(rows.map((row) => within(row).getAllByRole('cell')[3]!.textContent)).toEqual([
      'Yes',
      `Late, ${days('2020-02-29')} days`,
      `Late, ${days('2020-03-31')} days`,
    ]);
    expect(rows.map((row) => row.className.includes('text-error'))).toEqual([false, true, true]);
  });

  it('[S16] the Sales list filters by status: All, Open, Past due, Paid', async () => {
    const { star, buyerId, refs, statusId } = seed();
    await data.writes.sales.create({ horseId: star, buyerId, salePrice: '3000', termsMonths: 3, scheduleStartDate: '2020-01-31' });
    const comet = data.horses.create({ name: 'Comet', ...refs, statusId, priceUsd: '900' });
    await data.writes.sales.create({ horseId: comet, buyerId, salePrice: '900', termsMonths: 3, scheduleStartDate: '2099-01-01' });
    const dusty = data.horses.create({ name: 'Dusty', ...refs, statusId, priceUsd: '500' });
    await data.writes.sales.create({ horseId: dusty, buyerId, salePrice: '500', downPayment: '500', termsMonths: 0 });
    renderScreen(<SalesScreen />, { data });
    const filter = (await screen.findByRole('combobox', { name: 'Filter by status' })) as HTMLSelectElement;
    const listed = () =>
      within(screen.getByRole('table', { name: 'Sales' }))
        .queryAllByRole('row')
        .slice(1)
        .map((row) => within(row).queryAllByRole('cell')[0]?.textContent)
        .filter(Boolean);
    await waitFor(() => expect(listed().sort()).toEqual(['Comet', 'Dusty', 'Star']));
    await waitFor(() =>
      expect(
        within(filter)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All Statuses', 'Open (1)', 'Past due (1)', 'Paid (1)']),
    );
    fireEvent.change(filter, { target: { value: 'Past due' } });
    await waitFor(() => expect(listed()).toEqual(['Star']));
    fireEvent.change(filter, { target: { value: 'Open' } });
    await waitFor(() => expect(listed()).toEqual(['Comet']));
    fireEvent.change(filter, { target: { value: 'Paid' } });
    await waitFor(() => expect(listed()).toEqual(['Dusty']));
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(listed()).toHaveLength(3));
  });

  it('[P7] [P9] Download Receipt opens a printable receipt with its number and the balance left', async () => {
    const { star, buyerId } = seed();
    const saleId = await data.writes.sales.create({ horseId: star, buyerId, salePrice: '12000', termsMonths: 12 });
    await data.writes.payments.create({ saleId, amount: '250.5', date: '2026-02-01', method: 'Card', memo: 'First' });
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    renderScreen(<SalesScreen />, { data });
    fireEvent.click(await screen.findByRole('tab', { name: 'Payments' }));
    const payment = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    fireEvent.click(within(payment).getByRole('button', { name: 'Download Receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment Receipt' });
    const receipt = within(dialog).getByRole('article', { name: 'Receipt' });
    expect(within(receipt).getByText('$250.50')).toBeTruthy();
    expect(within(receipt).getByText('Credit/Debit Card')).toBeTruthy();
    expect(within(receipt).getByText('Bo Buyer')).toBeTruthy();
    expect(within(receipt).getByText('First')).toBeTruthy();
    // [P9] A short number and the balance left: $12,000 over 12 months, $250.50 paid.
    expect(within(receipt).getByText(/^Receipt no\. \d{6}-[0-9A-Z]{7}$/)).toBeTruthy();
    expect(within(receipt).getByTestId('remaining-balance').textContent).toBe('$11,749.50');
    // The print copy sits under <body>, outside the dialog's box.
    expect(document.querySelector('body > .print-root')?.textContent).toContain('$250.50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Print Receipt' }));
    expect(print).toHaveBeenCalled();
  });

  it('[L9] [P7] the receipt is headed by the logo, name and address kept on the device, offline too', async () => {
    const { star, buyerId } = seed();
    const saleId = await data.writes.sales.create({ horseId: star, buyerId, salePrice: '12000', termsMonths: 12 });
    await data.writes.payments.create({ saleId, amount: '100', date: '2026-02-01', method: 'Cash' });
    const logoData = 'data:image/png;base64,iVBORw0KGgo=';
    forgetRanchDetails();
    localStorage.setItem(
      CACHED_RANCH_KEY,
      JSON.stringify({
        name: 'Willow Creek Ranch',
        address: '1200 County Road 7\nLaramie, WY 82070',
        phone: '(307) 555-0142',
        email: 'office@willow.test',
        logoUrl: '/api/objects/0192f3a4-5b6c-7d8e-9f00-112233445566',
        logoData,
      }),
    );
    data.status.set({ online: false });
    try {
      renderScreen(<SalesScreen />, { data });
      fireEvent.click(await screen.findByRole('tab', { name: 'Payments' }));
      const payment = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
      fireEvent.click(within(payment).getByRole('button', { name: 'Download Receipt' }));
      const dialog = await screen.findByRole('dialog', { name: 'Payment Receipt' });
      const head = within(dialog).getByTestId('ranch-letterhead');
      expect([...head.querySelectorAll('p')].map((line) => line.textContent)).toEqual([
        'Willow Creek Ranch',
        '1200 County Road 7',
        'Laramie, WY 82070',
        '(307) 555-0142',
        'office@willow.test',
      ]);
      expect(within(head).getByRole('img', { name: 'Willow Creek Ranch logo' }).getAttribute('src')).toBe(logoData);
      expect(document.querySelector('body > .print-root')?.textContent).toMatch(/^Willow Creek Ranch1200 County Road 7Laramie, WY 82070/);
    } finally {
      forgetRanchDetails();
    }
  });

  it('[P7] with no details kept, the receipt says Ranch', async () => {
    const { star, buyerId } = seed();
    const saleId = await data.writes.sales.create({ horseId: star, buyerId, salePrice: '12000', termsMonths: 12 });
    await data.writes.payments.create({ saleId, amount: '100', date: '2026-02-01', method: 'Cash' });
    forgetRanchDetails();
    renderScreen(<SalesScreen />, { data });
    fireEvent.click(await screen.findByRole('tab', { name: 'Payments' }));
    const payment = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    fireEvent.click(within(payment).getByRole('button', { name: 'Download Receipt' }));
    const head = within(await screen.findByRole('dialog', { name: 'Payment Receipt' })).getByTestId('ranch-letterhead');
    expect(head.textContent).toBe('Ranch');
    expect(head.querySelector('img')).toBeNull();
  });

  it('warms the forms (their date fields, fonts and locale) once the screen is idle, before a form opens', async () => {
    renderScreen(<SalesScreen />, { data });
    expect(await screen.findByRole('button', { name: 'Create Sale' })).toBeTruthy();
    // lib/warm-forms.ts notes its last step; once per page, and nothing else here warms.
    await waitFor(() => expect(performance.getEntriesByName('forms warmed: sample laid out', 'measure')).toHaveLength(1), {
      timeout: 5000,
    });
  });

  it('[R1] a Viewer sees no write actions', async () => {
    const { star, buyerId } = seed();
    await data.writes.sales.create({ horseId: star, buyerId, salePrice: '12000', termsMonths: 12 });
    renderScreen(<SalesScreen />, { data, user: testUser('Viewer') });
    const row = (await screen.findByRole('cell', { name: 'Star' })).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'View Details' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Add Payment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Sale' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Record Payment' })).toBeNull();
  });
});
