import { useEffect, useMemo, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { warmForms } from '../../lib/warm-forms.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import { csvFilename, downloadCsv } from '../../ui/export-csv.ts';
import { useCanWrite } from '../auth/use-can-write.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { CreateSaleDialog } from './CreateSaleDialog.tsx';
import { PaymentReceiptDialog } from './PaymentReceiptDialog.tsx';
import { NEWEST_PAYMENTS, PAYMENT_COLUMNS, paymentText, PaymentsTable } from './PaymentsTable.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import { useListView } from '../../ui/use-list-view.ts';
import { RecordPaymentDialog } from './RecordPaymentDialog.tsx';
import { SaleDetailsDialog } from './SaleDetailsDialog.tsx';
import { usePaymentRows, useSaleRows, type PaymentRow, type SaleRow } from './sale-rows.ts';
import { paymentsCsv, salesCsv } from './sales-csv.ts';
import { NEWEST_SALES, SALE_COLUMNS, saleText, SalesTable } from './SalesTable.tsx';
import { SalesTabs, type SalesTab } from './SalesTabs.tsx';
import { StandingFilter } from './StandingFilter.tsx';
import type { SaleStandingLabel } from '../../../../shared/index.ts';
import { ReasonDialog } from './ReasonDialog.tsx';
import { RefundDialog } from './RefundDialog.tsx';
import { moneyText } from './sale-display.ts';
import { useRanchData } from '../../data/context.tsx';
import { useToast } from '../../ui/Toast.tsx';

type Props = {
  /** [B10] The sale whose details are shown (/sales/<id>). */
  link?: RecordLink | undefined;
  /** [B10] The payment whose receipt is shown (/payments/<id>). */
  payment?: RecordLink | undefined;
  /** The tab shown and how to show the other (the routes: /sales, /payments); the screen's own without. */
  tab?: SalesTab | undefined;
  onTab?: ((tab: SalesTab) => void) | undefined;
};

/** [S1] Sales & Payments; every write goes through the repositories, so it works offline. */
export function SalesScreen({ link, payment, tab: routeTab, onTab }: Props) {
  const canWrite = useCanWrite();
  const sales = useSaleRows();
  const payments = usePaymentRows();
  const [ownTab, setOwnTab] = useState<SalesTab>(routeTab ?? 'sales');
  const [tab, setTab] = routeTab && onTab ? [routeTab, onTab] : [ownTab, setOwnTab];
  const [creating, setCreating] = useState(false);
  const [paying, setPaying] = useState<{ saleId?: string } | null>(null);
  // [B10] The sale viewed is named by the address.
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  // [B10] The payment whose receipt is shown, named by the address too, and read as the list has it now.
  const { id: receiptId, open: showReceipt } = useRecordLink(payment);
  const receipt = receiptId && payments ? (payments.find((row) => row.id === receiptId) ?? null) : undefined;
  // [S16] The Sales tab's status filter: '' is every sale.
  const [standing, setStanding] = useState<SaleStandingLabel | ''>('');
  const shownSales = useMemo(
    () => (standing === '' || !sales ? sales : sales.filter((sale) => sale.standing === standing)),
    [sales, standing],
  );
  const salesView = useListView(shownSales, SALE_COLUMNS, saleText, NEWEST_SALES);
  const paymentsView = useListView(payments, PAYMENT_COLUMNS, paymentText, NEWEST_PAYMENTS);
  const [voiding, setVoiding] = useState<PaymentRow | null>(null);
  const [cancelling, setCancelling] = useState<SaleRow | null>(null);
  const [refunding, setRefunding] = useState<SaleRow | null>(null);
  const { writes } = useRanchData();
  const toast = useToast();
  /** A correction written, then the dialog closed and the toast ('… successfully' / 'Failed to …'). */
  const correct = async (write: () => Promise<unknown>, done: string, failed: string, close: () => void) => {
    try {
      await write();
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: failed, variant: 'destructive' });
      return;
    }
    close();
    toast({ title: 'Success', description: done, variant: 'success' });
  };
  // The sale and payment forms have date fields: Blink builds a renderer's first one, and lays
  // out its first form's fonts, in the form's first render unless warmed before (lib/warm-forms.ts).
  useEffect(() => {
    if (!canWrite) return;
    return whenIdle(() => void warmForms());
  }, [canWrite]);
  // The details follow live changes (a payment recorded elsewhere) while open.
  const viewed = viewingId && sales ? (sales.find((sale) => sale.id === viewingId) ?? null) : undefined;

  const exportCsv = () => {
    if (tab === 'sales') downloadCsv(csvFilename('sales'), salesCsv(salesView.shown ?? []));
    else downloadCsv(csvFilename('payments'), paymentsCsv(paymentsView.shown ?? []));
  };

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold max-md:sr-only">Sales & Payments</h1>
          <p className="text-base-content/70 max-md:hidden">Manage sales transactions and payment schedules</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline" onClick={exportCsv}>
            Export CSV
          </button>
          {canWrite && (
            <>
              <button type="button" className="btn btn-outline" onClick={() => setPaying({})}>
                Record Payment
              </button>
              <AddButton label="Create Sale" onClick={() => setCreating(true)} />
            </>
          )}
        </div>
      </div>
      <SalesTabs
        tab={tab}
        onChange={setTab}
        sales={
          <div className="space-y-3">
            <ListControls noun="sales" one="sale" searchHint="horse, buyer or status" view={salesView} columns={SALE_COLUMNS}>
              <StandingFilter rows={sales} value={standing} onChange={setStanding} />
            </ListControls>
            <SalesTable
              rows={salesView.shown}
              canWrite={canWrite}
              onView={(sale) => showDetails(sale.id)}
              onAddPayment={(sale) => setPaying({ saleId: sale.id })}
              sort={salesView.sort}
              onSort={salesView.setSort}
            />
          </div>
        }
        payments={
          <div className="space-y-3">
            <ListControls
              noun="payments"
              one="payment"
              searchHint="horse, buyer, method or memo"
              view={paymentsView}
              columns={PAYMENT_COLUMNS}
            />
            <PaymentsTable
              rows={paymentsView.shown}
              onReceipt={(row) => showReceipt(row.id)}
              onVoid={canWrite ? setVoiding : undefined}
              sort={paymentsView.sort}
              onSort={paymentsView.setSort}
            />
          </div>
        }
      />
      <CreateSaleDialog open={creating} onClose={() => setCreating(false)} />
      <RecordPaymentDialog open={paying !== null} sales={sales} saleId={paying?.saleId} onClose={() => setPaying(null)} />
      {viewed === null && <MissingRecord what="sale" onBack={() => showDetails(null)} />}
      <SaleDetailsDialog
        sale={viewed ?? null}
        onClose={() => showDetails(null)}
        onCancelSale={canWrite ? setCancelling : undefined}
        onRefund={canWrite ? setRefunding : undefined}
      />
      {receipt === null && <MissingRecord what="payment" onBack={() => showReceipt(null)} />}
      <PaymentReceiptDialog payment={receipt ?? null} payments={payments} onClose={() => showReceipt(null)} />
      <ReasonDialog
        open={voiding !== null}
        title="Void Payment"
        submitLabel="Void Payment"
        onClose={() => setVoiding(null)}
        onSubmit={(reason) =>
          correct(
            () => writes.corrections.voidPayment(voiding!.id, { reason }),
            'Payment voided',
            'Failed to void payment',
            () => setVoiding(null),
          )
        }
      >
        {voiding && (
          <p>
            The payment of {moneyText(voiding.amount)} on {voiding.horseName} stays listed, marked void, and no longer counts toward the
            sale. This cannot be undone.
          </p>
        )}
      </ReasonDialog>
      <ReasonDialog
        open={cancelling !== null}
        title="Cancel Sale"
        submitLabel="Cancel Sale"
        onClose={() => setCancelling(null)}
        onSubmit={(reason) =>
          correct(
            () => writes.corrections.cancelSale(cancelling!.id, { reason }),
            'Sale cancelled',
            'Failed to cancel sale',
            () => setCancelling(null),
          )
        }
      >
        {cancelling && (
          <p>
            The sale of {cancelling.horseName} to {cancelling.buyerName} stays in the records, marked cancelled; it takes no more payments,
            and what the buyer paid is held for them to refund. This cannot be undone.
          </p>
        )}
      </ReasonDialog>
      <RefundDialog sale={refunding && (sales?.find((sale) => sale.id === refunding.id) ?? refunding)} onClose={() => setRefunding(null)} />
    </section>
  );
}
