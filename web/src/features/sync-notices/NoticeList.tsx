import { useRanchData } from '../../data/context.tsx';
import { timeAgo } from '../../ui/relative-time.ts';
import { useNoticeBatches, useNoticeLines } from './use-notices.ts';

/**
 * The bell's panel: every change the server did not keep this session, newest first, or the
 * seed's empty text. A refused ledger entry's stays, start after start, until Dismiss ([S19]).
 */
export function NoticeList() {
  const data = useRanchData();
  const empty = useNoticeBatches().length === 0;
  const lines = useNoticeLines();
  if (empty) return <p>No new notifications</p>;
  const now = Date.now();
  return (
    <section aria-label="Changes not kept">
      <p className="mb-2 font-semibold">Changes not kept</p>
      {lines === undefined ? (
        <span className="loading loading-dots loading-sm" role="status" aria-label="Loading" />
      ) : (
        <ul className="flex flex-col gap-2">
          {lines.map((line) => (
            <li key={line.key} className="border-l-4 border-warning pl-2">
              <p>{line.text}</p>
              <p className="text-xs text-base-content/60">{timeAgo(line.receivedAt, now)}</p>
              {line.intent !== undefined && (
                <button type="button" className="btn btn-ghost btn-xs" onClick={() => void data.dismissRefused(line.intent!)}>
                  Dismiss
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
