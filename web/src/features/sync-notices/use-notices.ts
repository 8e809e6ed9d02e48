import { useEffect, useState, useSyncExternalStore } from 'react';
import { useRanchData } from '../../data/context.tsx';
import type { NoticeBatch } from '../../data/compensation-notices.ts';
import { useToast } from '../../ui/Toast.tsx';
import { batchToast, describeNotice } from './describe-notice.ts';

/** A warning stays twice the toast default ([B3], [O7]): it is read, not glanced at, and the bell keeps it after. */
export const NOTICE_TOAST_MS = 10_000;

export function useNoticeBatches(): NoticeBatch[] {
  const { notices } = useRanchData();
  return useSyncExternalStore(notices.subscribe, () => notices.get().batches);
}

/**
 * One warning toast per MESSAGE_COMPENSATED frame, on whatever screen is open. Batches that
 * arrived before this mounted are not toasted again (the bell lists them).
 */
export function useNoticeToasts(): void {
  const data = useRanchData();
  const toast = useToast();
  useEffect(() => {
    let shown = data.notices.get().batches.at(-1)?.id ?? 0;
    let active = true;
    const stop = data.notices.subscribe(() => {
      for (const batch of data.notices.get().batches.filter((batch) => batch.id > shown)) {
        shown = batch.id;
        void batchToast(data, batch.notices).then((text) => {
          if (active) toast({ ...text, variant: 'warning', duration: NOTICE_TOAST_MS });
        });
      }
    });
    return () => {
      active = false;
      stop();
    };
  }, [data, toast]);
}

/** `intent`: a refused ledger entry's, kept until the person dismisses it ([S19]). */
export type NoticeLine = { key: string; receivedAt: number; text: string; intent?: number };

/** Every kept notice as its sentence, newest first; names are read again when the list changes. */
export function useNoticeLines(): NoticeLine[] | undefined {
  const data = useRanchData();
  const batches = useNoticeBatches();
  const [lines, setLines] = useState<NoticeLine[] | undefined>(undefined);
  useEffect(() => {
    let active = true;
    const all = [...batches].reverse().flatMap((batch) => batch.notices.map((notice, index) => ({ batch, notice, index })));
    void Promise.all(
      all.map(async ({ batch, notice, index }) => ({
        key: `${batch.id}-${index}`,
        receivedAt: batch.receivedAt,
        text: await describeNotice(data, notice),
        ...(notice.intent === undefined ? {} : { intent: notice.intent }),
      })),
    ).then((described) => {
      if (active) setLines(described);
    });
    return () => {
      active = false;
    };
  }, [data, batches]);
  return lines;
}
