// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { openTestData } from '../../test/ranch-data.ts';
import { DataProvider, useSyncField } from './context.tsx';
import type { RanchData } from './ranch-data.ts';

let data: RanchData;
beforeEach(() => {
  data = openTestData();
});
afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

function ReadOnlyNote() {
  return <p>{useSyncField('readOnly') ? 'Read only' : 'Writable'}</p>;
}

describe('useSyncField', () => {
  it('re-renders a screen only when the field it shows changes, not at each status change', () => {
    const commits: string[] = [];
    render(
      <DataProvider data={data}>
        <Profiler id="screen" onRender={(_id, phase) => commits.push(phase)}>
          <ReadOnlyNote />
        </Profiler>
      </DataProvider>,
    );
    expect(screen.getByText('Writable')).toBeTruthy();
    expect(commits).toEqual(['mount']);

    act(() => data.status.set({ connection: 'connected', lastSyncedAt: Date.now(), saved: false }));
    act(() => data.status.set({ saved: true }));
    expect(commits).toEqual(['mount']);

    act(() => data.status.set({ readOnly: true }));
    expect(screen.getByText('Read only')).toBeTruthy();
    expect(commits).toEqual(['mount', 'update']);
  });
});
