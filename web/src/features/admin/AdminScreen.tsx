import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LOOKUP_KINDS, type LookupKind } from '../../../../shared/index.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { MissingRecord } from '../../ui/record-link.tsx';
import { RanchDetailsCard } from '../ranch/RanchDetailsCard.tsx';
import { LookupTab } from './LookupTab.tsx';
import { LOOKUP_TABS } from './lookup-texts.ts';

/**
 * [B10] Which lookup item the address names (/admin/<kind>/<id>), and how to open or close
 * one; without a router (the screen's tests) the screen keeps it in its own state.
 */
export type LookupLink = { kind: string | null; id: string | null; open: (kind: LookupKind, id: string | null) => void };

const isLookupKind = (kind: string | null): kind is LookupKind => (LOOKUP_KINDS as readonly (string | null)[]).includes(kind);

function useLookupLink(link: LookupLink | undefined): LookupLink {
  const [item, setItem] = useState<{ kind: LookupKind | null; id: string | null }>({ kind: null, id: null });
  return link ?? { ...item, open: (kind, id) => setItem(id ? { kind, id } : { kind: null, id: null }) };
}

/** [L1] Administration: the ranch's details for an Admin ([L9]), then the four dropdown lists in tabs, Breeds first. */
export function AdminScreen({ link: given }: { link?: LookupLink | undefined }) {
  const link = useLookupLink(given);
  const linked = isLookupKind(link.kind) ? link.kind : null;
  const [chosen, setSelected] = useState<LookupKind>(linked ?? 'breeds');
  // An item's link shows its tab, which stays chosen once its dialog closes.
  useEffect(() => {
    if (linked) setSelected(linked);
  }, [linked]);
  const selected = linked ?? chosen;
  const canWrite = useCanWrite();
  const auth = useAuth();
  const admin = auth.status === 'signed-in' && auth.user.role === 'Admin';
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  // WAI-ARIA tabs: arrow keys move between tabs (and select), Home/End jump.
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = LOOKUP_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setSelected(LOOKUP_TABS[next]!.kind);
    tabs.current[next]?.focus();
  };

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Administration</h1>
        <p className="text-base-content/70 max-md:hidden">Manage system configuration and dropdown lists</p>
      </div>
      {admin && <RanchDetailsCard />}
      {link.id && !linked && <MissingRecord what="item" onBack={() => link.open('breeds', null)} />}
      <div role="tablist" aria-label="Dropdown lists" className="tabs tabs-box w-fit max-w-full overflow-x-auto">
        {LOOKUP_TABS.map((tab, index) => (
          <button
            key={tab.kind}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.kind}`}
            aria-selected={selected === tab.kind}
            aria-controls={`${id}-panel`}
            tabIndex={selected === tab.kind ? 0 : -1}
            className={`tab ${selected === tab.kind ? 'tab-active' : ''}`}
            onClick={() => setSelected(tab.kind)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.tab}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`}>
        <LookupTab
          key={selected}
          kind={selected}
          canWrite={canWrite}
          link={{ id: linked === selected ? link.id : null, open: (id) => link.open(selected, id) }}
        />
      </div>
    </section>
  );
}
