import * as Y from 'yjs';
import { INITIAL_EPOCH } from '../../../shared/index.ts';

type Struct = Y.Item | Y.GC | Y.Skip;
/** The delete set of a decoded update (Y.decodeUpdate): ranges of deleted clocks by client. */
type DeleteSet = { clients: Map<number, unknown[]> };

/**
 * The document's epoch and the client ids of its earlier epochs (docs/sync-rules.md
 * "Document epochs"). A rebuild (`npm run rebuild-document`) writes the valid records into a
 * fresh document, so none of the earlier document's client ids appear in it: an update that
 * names one — an item of such a client, an item placed next to or inside one, a deletion of
 * one — is state of an older epoch, and applying it would bring back what the rebuild removed.
 */
export class DocumentEpoch {
  constructor(
    readonly id: string = INITIAL_EPOCH,
    private readonly retired: ReadonlyMap<number, number> = new Map(),
  ) {}

  static fromStored(id: string, retired: Uint8Array | null): DocumentEpoch {
    return new DocumentEpoch(id, retired ? Y.decodeStateVector(retired) : new Map());
  }

  isRetired(client: number): boolean {
    return this.retired.has(client);
  }

  /** Whether a decoded update names a client of an earlier epoch. */
  namesRetired(structs: Struct[], ds: DeleteSet): boolean {
    if (this.retired.size === 0) return false;
    for (const client of ds.clients.keys()) if (this.retired.has(client)) return true;
    for (const struct of structs) {
      if (this.retired.has(struct.id.client)) return true;
      if (!(struct instanceof Y.Item)) continue;
      const parent: unknown = struct.parent;
      for (const ref of [struct.origin, struct.rightOrigin, parent instanceof Y.ID ? parent : null]) {
        if (ref && this.retired.has(ref.client)) return true;
      }
    }
    return false;
  }
}

/** A client id for a document that writes under this epoch: never one it retired. */
export function freshClientId(doc: Y.Doc, epoch: DocumentEpoch): void {
  while (epoch.isRetired(doc.clientID)) doc.clientID = new Y.Doc().clientID;
}
