import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, newId, readRecord } from '../../../../shared/index.ts';
import { writeStamped } from './device-time.ts';

describe('device time', () => {
  it('[T5] a write that changes a record stamps it with the device time; one that changes nothing writes nothing', () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T08:00:00.000Z'), toFake: ['Date'] });
    const doc = new Y.Doc();
    const id = newId();
    writeStamped(doc, 'breeds', id, { name: 'Shire', isActive: true });
    const breed = () => collectionMap(doc, 'breeds').get(id) as Y.Map<unknown>;
    expect(breed().get('updatedAt')).toBe('2026-05-01T08:00:00.000Z');

    vi.setSystemTime(new Date('2026-05-02T08:00:00.000Z'));
    const updates: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => updates.push(update));
    writeStamped(doc, 'breeds', id, { name: 'Shire' });
    expect(updates).toHaveLength(0);
    writeStamped(doc, 'breeds', id, { name: 'Shire Horse' });
    expect(breed().get('updatedAt')).toBe('2026-05-02T08:00:00.000Z');
    // Records read without it: the read model and the projection hold the record's own fields.
    expect(readRecord('breeds', id, breed())).toEqual({ valid: true, record: { id, name: 'Shire Horse', isActive: true } });
    vi.useRealTimers();
  });

  it('[T5] a stamp that is not a timestamp makes the record carry a field it may not have', () => {
    const doc = new Y.Doc();
    const id = newId();
    writeStamped(doc, 'breeds', id, { name: 'Shire', isActive: true });
    (collectionMap(doc, 'breeds').get(id) as Y.Map<unknown>).set('updatedAt', 'yesterday');
    expect(readRecord('breeds', id, collectionMap(doc, 'breeds').get(id))).toMatchObject({ valid: false, fields: ['updatedAt'] });
  });
});
