import { useEffect, useState } from 'react';
import { warmForms } from '../../lib/warm-forms.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import { csvFilename, downloadCsv } from '../../ui/export-csv.ts';
import { useCanWrite } from '../auth/use-can-write.ts';
import { CreateSaleDialog } from './CreateSaleDialog.tsx';
import { PaymentReceiptDialog } from './PaymentReceiptDialog.tsx';
import { PaymentsTable } from './PaymentsTable.tsx';
import { RecordPaymentDialog } from './RecordPaymentDialog.tsx';
import { SaleDetailsDialog } from './SaleDetailsDialog.tsx';
import { usePaymentRows, useSaleRows, type PaymentRow, type SaleRow } from './sale-rows.ts';
import { paymentsCsv, salesCsv } from './sales-csv.ts';
import { SalesTable } from './SalesTable.tsx';
import { SalesTabs, type SalesTab } from './SalesTabs.tsx';
import { StandingFilter } from './StandingFilter.tsx';
import type { SaleStandingLabel } from '../../../../shared/index.ts';

/** [S1] Sales & Payments; every write goes through the repositories, so it works offline. */
export function SalesScreen() {
  const canWrite = useCanWrite();
  const sales = useSaleRows();
  const payments = usePaymentRows();
  const [tab, setTab] = useState<SalesTab>('sales');
  const [creating, setCreating] = useState(false);
  const [paying, setPaying] = useState<{ saleId?: string } | null>(null);
  const [viewing, setViewing] = useState<SaleRow | null>(null);
  const [receipt, setReceipt] = useState<PaymentRow | null>(null);
  // [S16] The Sales tab's status filter: '' is every sale.
  const [standing, setStanding] = useState<SaleStandingLabel | ''>('');
  const shownSales = standing === '' || !sales ? sales : sales.filter((sale) => sale.standing === standing);
  // The sale and payment forms have date fields: Blink builds a renderer's first one, and lays
  // out its first form's fonts, in the form's first render unless warmed before (lib/warm-forms.ts).
  useEffect(() => {
    if (!canWrite) return;
    return whenIdle(() => void warmForms());
  }, [canWrite]);
  // The details follow live changes (a payment recorded elsewhere) while open.
  const viewed = viewing && (sales?.find((sale) => sale.id === viewing.id) ?? viewing);

  const exportCsv = () => {
    if (tab === 'sales') downloadCsv(csvFilename('sales'), salesCsv(shownSales ?? []));
    else downloadCsv(csvFilename('payments'), paymentsCsv(payments ?? []));
  };

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">Sales & Payments</h1>
          <p className="text-base-content/70">Manage sales transactions and payment schedules</p>
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
              <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
                Create Sale
              </button>
            </>
          )}
        </div>
      </div>
      <SalesTabs
        tab={tab}
        onChange={setTab}
        sales={
          <div className="space-y-3">
            <StandingFilter rows={sales} value={standing} onChange={setStanding} />
            <SalesTable rows={shownSales} canWrite={canWrite} onView={setViewing} onAddPayment={(sale) => setPaying({ saleId: sale.id })} />
          </div>
        }
        payments={<PaymentsTable rows={payments} onReceipt={setReceipt} />}
      />
      <CreateSaleDialog open={creating} onClose={() => setCreating(false)} />
      <RecordPaymentDialog open={paying !== null} sales={sales} saleId={paying?.saleId} onClose={() => setPaying(null)} />
      <SaleDetailsDialog sale={viewed} onClose={() => setViewing(null)} />
      <PaymentReceiptDialog payment={receipt} payments={payments} onClose={() => setReceipt(null)} />
    </section>
  );
}
