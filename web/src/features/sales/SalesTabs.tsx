import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export type SalesTab = 'sales' | 'payments';
const TABS: { id: SalesTab; label: string }[] = [
  { id: 'sales', label: 'Sales' },
  { id: 'payments', label: 'Payments' },
];

type Props = { tab: SalesTab; onChange: (tab: SalesTab) => void; sales: ReactNode; payments: ReactNode };

/**
 * The tab an arrow key just chose, and when: each tab is a route of its own (/sales,
 * /payments), so the screen that shows it is made anew and its tab takes the focus.
 */
let keyedTab: { tab: SalesTab; at: number } | null = null;

/** WAI-ARIA tabs: arrow keys move between them; only the chosen panel is rendered. */
export function SalesTabs({ tab, onChange, sales, payments }: Props) {
  const id = useId();
  const refs = useRef<Record<SalesTab, HTMLButtonElement | null>>({ sales: null, payments: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen is made for the route an arrow key chose
  useEffect(() => {
    if (keyedTab?.tab === tab && performance.now() - keyedTab.at < 2000) refs.current[tab]?.focus();
    keyedTab = null;
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = tab === 'sales' ? 'payments' : 'sales';
    keyedTab = { tab: next, at: performance.now() };
    onChange(next);
    refs.current[next]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label="Sales and payments" className="tabs tabs-box w-fit" onKeyDown={onKeyDown}>
        {TABS.map((item) => (
          <button
            key={item.id}
            ref={(element) => {
              refs.current[item.id] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${item.id}-tab`}
            aria-selected={tab === item.id}
            aria-controls={`${id}-${item.id}-panel`}
            tabIndex={tab === item.id ? 0 : -1}
            className={`tab ${tab === item.id ? 'tab-active' : ''}`}
            onClick={() => onChange(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}-tab`} className="mt-4">
        {tab === 'sales' ? sales : payments}
      </div>
    </div>
  );
}
